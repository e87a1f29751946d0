// Server: the running authoritative server behind `cutover serve`. Owns the listeners and
// the current ZoneSet snapshot, reloads on SIGHUP, stops on SIGTERM/SIGINT, and hosts
// extensions: services that run beside the listeners (health checkers, control APIs) and an
// optional query interceptor (lab outage modes). Listener threads read the snapshot without
// blocking; publish() may be called from any thread.
#pragma once

#include <signal.h>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "base/network_table.h"
#include "base/published.h"
#include "auth/dynamic_answers.h"
#include "auth/engine.h"
#include "base/log.h"
#include "base/result.h"
#include "config/config.h"
#include "net/address.h"
#include "net/handler.h"
#include "server/cookie_jar.h"
#include "server/zone_loading.h"

namespace cutover::server {

// Something that runs for the server's lifetime beside the listeners.
class Service {
 public:
  virtual ~Service() = default;
  virtual std::string name() const = 0;
  // Called after the zones loaded and before the listeners open; a failure stops startup.
  virtual base::Status start() = 0;
  // Called once on shutdown, after the listeners closed.
  virtual void stop() = 0;
  // Called on SIGHUP after the new zones were published; a failure is logged, not fatal.
  virtual base::Status reload(const config::Config& next) {
    (void)next;
    return {};
  }
};

// What an interceptor or request handler decided for one query (net/handler.h).
using net::Intercept;
// Sees every query before the engine. kRespond sends what it wrote into `response`.
using QueryInterceptor =
    std::function<Intercept(std::span<const std::uint8_t> query, net::Transport transport, std::vector<std::uint8_t>& response)>;
// Told the outcomes of answered queries (metrics), a received batch at a time so counters
// are updated once per batch; outcomes with respond = false (dropped) are to be skipped.
// Runs on the listener threads.
using QueryObserver = std::function<void(std::span<const auth::QueryOutcome> outcomes)>;

// Sees every query before the interceptor and the engine, with the client's address, and may
// answer with several messages (zone transfers over TCP; over UDP only the first is sent).
// For opcodes and types the engine does not serve itself: UPDATE, NOTIFY, AXFR, IXFR.
using RequestHandler = std::function<Intercept(std::span<const std::uint8_t> query, net::Transport transport,
                                               const sockaddr_storage& client,
                                               std::vector<std::vector<std::uint8_t>>& responses)>;

// Takes over publishing freshly loaded zones (at start: `initial`, and on every reload), e.g.
// to replay a journal over them first. `views`: the views' own zones as just loaded from
// their files; a handler that keeps them elsewhere (a view's store) publishes its version
// with Server::publish_view. A failure at start stops startup; on reload the previous zones
// keep being served.
using ZoneLoadHandler = std::function<base::Status(const config::Config& config, std::shared_ptr<const auth::ZoneSet> loaded,
                                                   const std::vector<LoadedView>& views, bool initial)>;

class Server {
 public:
  // Re-reads the configuration on reload; throws config::ConfigError.
  using ConfigSource = std::function<config::Config()>;
  // Told the bound addresses once everything listens.
  using ReadyCallback = std::function<void(const std::vector<net::SocketAddress>&)>;

  // `logger` must outlive the server.
  Server(ConfigSource source, config::Config initial, base::Logger& logger);

  // Extensions, registered before run(). Request handlers, then interceptors, see a query
  // in the order they were added; the first that does not return kContinue decides it.
  // Every observer is told every outcome.
  void add_service(std::shared_ptr<Service> service);
  void add_interceptor(QueryInterceptor interceptor);
  void add_query_observer(QueryObserver observer);
  void add_request_handler(RequestHandler handler);
  // Only one component can take over publishing; a second call throws std::logic_error.
  void set_zone_load_handler(ZoneLoadHandler handler);

  // Swaps the served zones at once: each query sees the old set or the new one, never a mix.
  // `zones` are the default zones; the configured views (auth/views.h) are attached to them
  // here, each view's own zones over these, so a write to a default zone reaches every view
  // that does not replace it.
  void publish(std::shared_ptr<const auth::ZoneSet> zones);
  std::shared_ptr<const auth::ZoneSet> zones() const { return zones_.load(); }
  // Swaps one view's own zones (a write to them, docs/steering.md "Writes to a view's zones"):
  // they replace what its file gave from now on, across reloads, until the next call.
  void publish_view(const std::string& view, std::shared_ptr<const auth::ZoneSet> zones);
  // Swaps the dynamic answers (the pools'); the next query sees them.
  void publish_dynamic(std::shared_ptr<const auth::DynamicAnswers> dynamic);
  std::shared_ptr<const auth::DynamicAnswers> dynamic() const { return dynamic_.load(); }
  // What the engine is told about a query from `client` (its address spans `client`'s bytes):
  // the current cookie secrets, the time, the trusted Client Subnet resolvers. For request
  // handlers that answer through the engine themselves (signed queries).
  auth::ClientContext client_context(const sockaddr_storage& client) const;
  const config::Config& config() const { return config_; }
  base::Logger& logger() { return logger_; }

  // Loads zones, starts services and listeners, then handles signals (blocked by the caller
  // in every thread) until SIGTERM or SIGINT. Returns the process exit status.
  int run(const sigset_t& signals, const ReadyCallback& on_ready = {});

 private:
  bool answer(std::span<const std::uint8_t> query, net::Transport transport, const sockaddr_storage& client,
              std::vector<std::uint8_t>& response) const;
  // A received UDP batch: one zone and dynamic-answer snapshot for all of it, answers prefetched
  // (auth::answer_batch); one by one through answer() when a hook must see each query.
  void answer_batch(std::span<net::Datagram> batch) const;
  // Loads and publishes the configured zones. The load result goes out of scope on return,
  // so the first snapshot is held only where it was published and a write or reload frees it.
  bool load_initial_zones();
  void wait_for_stop(const sigset_t& signals);
  void reload();
  bool same_listeners(const config::Config& next) const;
  base::Status take_zones(const config::Config& config, std::shared_ptr<const auth::ZoneSet> loaded,
                          const std::vector<LoadedView>& views, bool initial);
  // Makes `views` the served views (views_mutex_ held): each with the zones publish_view gave
  // it, if any, else those of its file.
  void set_views_locked(std::vector<LoadedView> views);
  bool handle_stream(std::span<const std::uint8_t> query, const sockaddr_storage& client,
                     std::vector<std::vector<std::uint8_t>>& responses) const;
  // The request handlers in order, until one decides.
  Intercept handle_request(std::span<const std::uint8_t> query, net::Transport transport, const sockaddr_storage& client,
                           std::vector<std::vector<std::uint8_t>>& responses) const;
  void observe(std::span<const auth::QueryOutcome> outcomes) const;
  void stop_services();
  // The views' own zones, loaded from `config.views`; false (logged) when one did not load.
  bool load_views(const config::Config& config, std::vector<LoadedView>& out);

  ConfigSource source_;
  config::Config config_;
  base::Logger& logger_;
  std::vector<std::shared_ptr<Service>> services_;
  std::vector<QueryInterceptor> interceptors_;
  std::vector<RequestHandler> request_handlers_;
  ZoneLoadHandler zone_load_handler_;
  std::vector<QueryObserver> observers_;
  // Read per batch by the UDP workers through their own cached copies (Published::read),
  // which each worker drops when its receive idles (answer_batch with an empty batch).
  base::Published<auth::ZoneSet> zones_;
  base::Published<auth::DynamicAnswers> dynamic_;
  std::atomic<bool> query_log_;
  std::unique_ptr<CookieJar> cookies_;
  // client-subnet.trust as a table; empty (no option is trusted) when unset.
  base::Published<base::NetworkTable> subnet_trust_;
  // Held while views change and while a publication attaches them (writes publish from other
  // threads than reload).
  mutable std::mutex views_mutex_;
  std::vector<LoadedView> views_;
  std::shared_ptr<const auth::ViewTable> view_table_;  // views_' match tables, built once per load
  std::map<std::string, std::shared_ptr<const auth::ZoneSet>> view_writes_;  // by view name, from publish_view
};

}  // namespace cutover::server
