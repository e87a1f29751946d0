// Server lifecycle: load zones, start services and listeners, answer, reload, stop.
#include "server/server.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <ctime>
#include <stdexcept>

#include "auth/answer_batch.h"
#include "auth/views.h"
#include "base/lazy_array.h"
#include "base/load_heap.h"
#include "config/zone_files.h"
#include "dnssec/zone_keys.h"
#include "net/server.h"
#include "server/zone_loading.h"

namespace cutover::server {
namespace {

// The heap a load of `config`'s zones will grow by, to make resident up front (base::LoadHeap):
// about nine bytes per byte of zone file for the bench zone (a record per 25-byte line; the
// parsed records, their names and rdata, and the zone built from them), so eight stays
// below it for zones of longer records. docs/performance.md, "Loading without page faults".
std::size_t load_heap_bytes(const config::Config& config) {
  constexpr std::uintmax_t kHeapPerZoneFileByte = 8;
  return static_cast<std::size_t>(config::zone_file_bytes(config) * kHeapPerZoneFileByte);
}

// A signed zone whose first signature expires sooner than this is a warning at load (7 days,
// the refresh period signers commonly leave before expiry).
constexpr std::int64_t kSignatureExpiryWarning = 7 * 86400;

// Queries answered against one snapshot load; a received batch is never larger.
constexpr std::size_t kMaxBatch = 32;

// For server cookie timestamps (RFC 9018 §4.3); read through the vDSO, no system call.
std::uint32_t unix_seconds() { return static_cast<std::uint32_t>(::time(nullptr)); }

// A signed zone's first signature to expire (docs/dnssec.md, "Keys and signatures"): a
// warning when that is within kSignatureExpiryWarning, an error once it has passed (validators
// then answer SERVFAIL for what it covers); the figure is on /metrics too.
void log_signature_expiry(base::Logger& logger, const zone::Zone& zone) {
  if (!zone::is_signed(zone)) return;
  auto left = dnssec::earliest_expiry_in(zone, unix_seconds());
  if (!left) return;
  std::string origin = zone.origin().to_text();
  std::string seconds = std::to_string(*left);
  if (*left < 0) {
    logger.error("dnssec.expired", {{"origin", origin}, {"expires_in_seconds", seconds}});
  } else if (*left < kSignatureExpiryWarning) {
    logger.warn("dnssec.expiring", {{"origin", origin}, {"expires_in_seconds", seconds}});
  }
}

void log_zone_load(base::Logger& logger, const ZoneSetLoad& load) {
  for (const auto& diagnostic : load.diagnostics) {
    if (diagnostic.severity == zone::Severity::kError) {
      logger.error("zone.error", {{"diagnostic", diagnostic.to_string()}});
    } else {
      logger.warn("zone.warning", {{"diagnostic", diagnostic.to_string()}});
    }
  }
  for (const auto& zone : load.loaded) {
    logger.info("zone.loaded", {{"origin", zone.origin.to_text()},
                                {"serial", std::to_string(zone.serial)},
                                {"records", std::to_string(zone.records)},
                                {"file", zone.file}});
    if (zone.zone != nullptr) log_signature_expiry(logger, *zone.zone);
  }
}

net::NetOptions net_options(const config::Config& config) {
  net::NetOptions options;
  for (const auto& listen : config.listen) options.listen.push_back(listen.address);
  options.threads = config.threads;
  options.tcp = config.tcp;
  return options;
}

// The trusted resolvers of client-subnet.trust, or nullptr when none are (the reader has
// already refused a prefix listed twice).
std::shared_ptr<const base::NetworkTable> subnet_trust_table(const config::ClientSubnetConfig& config) {
  if (config.trust.empty()) return nullptr;
  auto table = std::make_shared<base::NetworkTable>();
  for (const auto& prefix : config.trust) (void)table->add(prefix, 0);
  table->seal();  // looked up for every query with a Client Subnet option
  return table;
}

}  // namespace

Server::Server(ConfigSource source, config::Config initial, base::Logger& logger)
    : source_(std::move(source)),
      config_(std::move(initial)),
      logger_(logger),
      query_log_(config_.log.queries),
      cookies_(std::make_unique<CookieJar>(config_.cookies)) {
  subnet_trust_.publish(subnet_trust_table(config_.client_subnet));
}

void Server::add_service(std::shared_ptr<Service> service) { services_.push_back(std::move(service)); }

void Server::add_interceptor(QueryInterceptor interceptor) { interceptors_.push_back(std::move(interceptor)); }

void Server::add_request_handler(RequestHandler handler) { request_handlers_.push_back(std::move(handler)); }

void Server::set_zone_load_handler(ZoneLoadHandler handler) {
  if (zone_load_handler_) throw std::logic_error("a zone load handler is already set");
  zone_load_handler_ = std::move(handler);
}

Intercept Server::handle_request(std::span<const std::uint8_t> query, net::Transport transport,
                                 const sockaddr_storage& client, std::vector<std::vector<std::uint8_t>>& responses) const {
  for (const auto& handler : request_handlers_) {
    Intercept decision = handler(query, transport, client, responses);
    if (decision != Intercept::kContinue) return decision;
  }
  return Intercept::kContinue;
}

void Server::observe(std::span<const auth::QueryOutcome> outcomes) const {
  for (const auto& observer : observers_) observer(outcomes);
}

base::Status Server::take_zones(const config::Config& config, std::shared_ptr<const auth::ZoneSet> loaded,
                                const std::vector<LoadedView>& views, bool initial) {
  if (zone_load_handler_) return zone_load_handler_(config, std::move(loaded), views, initial);
  publish(std::move(loaded));
  return {};
}

bool Server::handle_stream(std::span<const std::uint8_t> query, const sockaddr_storage& client,
                           std::vector<std::vector<std::uint8_t>>& responses) const {
  // kDrop answers nothing: true with no responses.
  return handle_request(query, net::Transport::kTcp, client, responses) != Intercept::kContinue;
}

void Server::add_query_observer(QueryObserver observer) { observers_.push_back(std::move(observer)); }

void Server::publish(std::shared_ptr<const auth::ZoneSet> zones) {
  std::lock_guard lock(views_mutex_);
  if (views_.empty() && zones->views() == nullptr) {
    zones_.publish(std::move(zones));
    return;
  }
  zones_.publish(attach_views(*zones, views_, view_table_.get()));
}

void Server::publish_view(const std::string& view, std::shared_ptr<const auth::ZoneSet> zones) {
  std::lock_guard lock(views_mutex_);
  view_writes_[view] = zones;
  bool served = false;
  for (auto& loaded : views_) {
    if (loaded.config.name == view) {
      loaded.zones = zones;
      served = true;
    }
  }
  auto current = zones_.load();
  if (served && current) zones_.publish(attach_views(*current, views_, view_table_.get()));
}

void Server::set_views_locked(std::vector<LoadedView> views) {
  views_ = std::move(views);
  for (auto& loaded : views_) {
    auto written = view_writes_.find(loaded.config.name);
    if (written != view_writes_.end()) loaded.zones = written->second;
  }
  view_table_ = view_table(views_);
}

bool Server::load_views(const config::Config& config, std::vector<LoadedView>& out) {
  for (const auto& view : config.views) {
    ZoneSetLoad load = load_zones(view.zones, false);
    log_zone_load(logger_, load);
    if (!load.zones) {
      logger_.error("view.failed", {{"view", view.name}, {"reason", "a zone of the view did not load"}});
      return false;
    }
    logger_.info("view.loaded", {{"view", view.name}, {"zones", std::to_string(load.loaded.size())}});
    out.push_back({view, std::move(load.zones)});
  }
  return true;
}

auth::ClientContext Server::client_context(const sockaddr_storage& client) const {
  return auth::ClientContext{net::address_bytes(client), cookies_->current(), unix_seconds(), subnet_trust_.read()};
}

void Server::publish_dynamic(std::shared_ptr<const auth::DynamicAnswers> dynamic) { dynamic_.publish(std::move(dynamic)); }

bool Server::load_initial_zones() {
  std::vector<LoadedView> views;
  if (!load_views(config_, views)) {
    logger_.error("serve.failed", {{"reason", "a view's zone did not load"}});
    return false;
  }
  {
    std::lock_guard lock(views_mutex_);
    set_views_locked(views);
  }
  ZoneSetLoad load = load_zones(config_.zones);
  log_zone_load(logger_, load);
  if (!load.zones) {
    logger_.error("serve.failed", {{"reason", "a zone did not load"}});
    return false;
  }
  if (auto taken = take_zones(config_, std::move(load.zones), views, true); !taken) {
    logger_.error("serve.failed", {{"reason", taken.error().message}});
    return false;
  }
  return true;
}

int Server::run(const sigset_t& signals, const ReadyCallback& on_ready) {
  logger_.info("serve.start", {{"config", config_.source}, {"zones", std::to_string(config_.zones.size())}});
  {
    // Ends with malloc_trim: the parser's temporary records are freed by now, and their
    // pages go back to the system instead of staying with the server for its life.
    base::LoadHeap heap(load_heap_bytes(config_));
    if (!load_initial_zones()) return 1;
  }

  for (std::size_t i = 0; i < services_.size(); ++i) {
    auto started = services_[i]->start();
    if (!started) {
      logger_.error("serve.failed", {{"service", services_[i]->name()}, {"reason", started.error().message}});
      services_.resize(i);  // stop only those that started
      stop_services();
      return 1;
    }
    logger_.info("service.started", {{"service", services_[i]->name()}});
  }

  net::NetOptions options = net_options(config_);
  if (!request_handlers_.empty()) {
    options.stream = [this](auto query, const auto& client, auto& responses) {
      return handle_stream(query, client, responses);
    };
  }
  options.batch = [this](std::span<net::Datagram> batch) { answer_batch(batch); };
  auto listeners = net::NetServer::start(options, [this](auto query, auto transport, const auto& client,
                                                                       auto& response) {
    return answer(query, transport, client, response);
  });
  if (!listeners) {
    logger_.error("serve.failed", {{"reason", listeners.error().message}});
    stop_services();
    return 1;
  }
  for (const auto& address : (*listeners)->addresses()) {
    logger_.info("listen", {{"address", net::format_address(address.storage)}, {"transports", "udp,tcp"}});
  }
  if (on_ready) on_ready((*listeners)->addresses());
  logger_.info("serve.ready", {{"threads", std::to_string(config_.threads)}});

  wait_for_stop(signals);
  (*listeners)->stop();
  stop_services();
  logger_.info("serve.stop");
  return 0;
}

bool Server::answer(std::span<const std::uint8_t> query, net::Transport transport, const sockaddr_storage& client,
                    std::vector<std::uint8_t>& response) const {
  // Over TCP the request handler already saw the query (handle_stream).
  if (!request_handlers_.empty() && transport == net::Transport::kUdp) {
    std::vector<std::vector<std::uint8_t>> responses;
    Intercept decision = handle_request(query, transport, client, responses);
    if (decision == Intercept::kDrop) return false;
    if (decision == Intercept::kRespond) {
      if (responses.empty()) return false;
      response = std::move(responses.front());
      return true;
    }
  }
  for (const auto& interceptor : interceptors_) {
    Intercept decision = interceptor(query, transport, response);
    if (decision == Intercept::kDrop) return false;
    if (decision == Intercept::kRespond) return true;
  }
  bool udp = transport == net::Transport::kUdp;
  // Counted references: the TCP workers, which answer here, have no idle call that would
  // drop a per-thread copy (answer_batch has).
  std::shared_ptr<const auth::ZoneSet> zones = zones_.load();
  std::shared_ptr<const auth::DynamicAnswers> dynamic = dynamic_.load();  // held until the outcome is used
  bool log_query = query_log_.load(std::memory_order_relaxed);
  auth::ClientContext context = client_context(client);
  auth::QueryOutcome outcome = auth::answer_query(*zones, dynamic.get(), query, transport,
                                                  response, log_query, &context);
  if (log_query) {
    std::string qname = outcome.qname ? outcome.qname->to_text() : "-";
    std::string rcode = outcome.respond ? dns::rcode_to_text(outcome.rcode) : "dropped";
    if (outcome.view == nullptr) {
      logger_.info("query", {{"client", net::format_address(client)}, {"qname", qname},
                             {"qtype", dns::type_to_text(outcome.qtype)}, {"rcode", rcode},
                             {"transport", udp ? "udp" : "tcp"}});
    } else {  // answered in a view (docs/steering.md, "Views")
      logger_.info("query", {{"client", net::format_address(client)}, {"qname", qname},
                             {"qtype", dns::type_to_text(outcome.qtype)}, {"rcode", rcode},
                             {"transport", udp ? "udp" : "tcp"}, {"view", outcome.view->name}});
    }
  }
  if (!observers_.empty() && outcome.respond) observe(std::span<const auth::QueryOutcome>(&outcome, 1));
  return outcome.respond;
}

void Server::answer_batch(std::span<net::Datagram> batch) const {
  if (batch.empty()) {  // this worker is idle (net::BatchHandler): keep no replaced zone set alive
    zones_.forget();
    dynamic_.forget();
    return;
  }
  if (!request_handlers_.empty() || !interceptors_.empty() || query_log_.load(std::memory_order_relaxed)) {
    for (auto& datagram : batch) datagram.reply = answer(datagram.query, net::Transport::kUdp, *datagram.client, *datagram.response);
    return;
  }
  // Constructed as far as the batch goes (base::LazyArray): a receive at a low rate holds one
  // datagram, and building 32 outcomes for it cost more than answering it.
  base::LazyArray<auth::BatchQuery, kMaxBatch> queries;
  base::LazyArray<auth::QueryOutcome, kMaxBatch> outcomes;
  for (std::size_t start = 0; start < batch.size(); start += kMaxBatch) {
    auto part = batch.subspan(start, std::min(kMaxBatch, batch.size() - start));
    queries.ensure(part.size());
    outcomes.ensure(part.size());
    for (std::size_t i = 0; i < part.size(); ++i) {
      queries[i] = {part[i].query, part[i].response, net::address_bytes(*part[i].client)};
    }
    auto answered = std::span<auth::QueryOutcome>(outcomes.data(), part.size());
    // This thread's copies (base::Published::read): a version compare per batch, where two
    // std::atomic<std::shared_ptr> loads and releases cost about 70 instructions (a lock bit
    // and two reference counts written). Valid until this thread's next read, after the
    // outcomes are used.
    const auth::ZoneSet* zones = zones_.read();
    const auth::DynamicAnswers* dynamic = dynamic_.read();
    auth::answer_batch(*zones, dynamic, std::span<const auth::BatchQuery>(queries.data(), part.size()), answered,
                       cookies_->current(), unix_seconds(), subnet_trust_.read());
    for (std::size_t i = 0; i < part.size(); ++i) part[i].reply = answered[i].respond;
    if (!observers_.empty()) observe(answered);
  }
}

void Server::wait_for_stop(const sigset_t& signals) {
  while (true) {
    siginfo_t info{};
    int signo = ::sigwaitinfo(&signals, &info);
    if (signo == SIGHUP) {
      reload();
    } else if (signo == SIGTERM || signo == SIGINT) {
      logger_.info("serve.stopping", {{"signal", signo == SIGTERM ? "SIGTERM" : "SIGINT"}});
      return;
    }
  }
}

// Everything is read and checked before anything is swapped, so a failure anywhere leaves
// the running data untouched.
void Server::reload() {
  logger_.info("reload.start");
  config::Config next;
  try {
    next = source_();
  } catch (const config::ConfigError& e) {
    logger_.error("reload.failed", {{"reason", e.what()}});
    return;
  }
  base::LoadHeap heap(load_heap_bytes(next));  // as at start; ends trimming the heap, whichever way this returns
  std::vector<LoadedView> views;
  if (!load_views(next, views)) {
    logger_.error("reload.failed", {{"reason", "a view's zone did not load; still serving the previous zones"}});
    return;
  }
  ZoneSetLoad load = load_zones(next.zones);
  log_zone_load(logger_, load);
  if (!load.zones) {
    logger_.error("reload.failed", {{"reason", "a zone did not load; still serving the previous zones"}});
    return;
  }
  if (auto taken = take_zones(next, load.zones, views, false); !taken) {
    logger_.error("reload.failed", {{"reason", taken.error().message + "; still serving the previous zones"}});
    return;
  }
  {
    // The default zones just published carry the old views; attach the new ones to them.
    std::lock_guard lock(views_mutex_);
    set_views_locked(std::move(views));
    auto current = zones_.load();
    zones_.publish(views_.empty() && current->views() == nullptr ? current : attach_views(*current, views_, view_table_.get()));
  }
  query_log_.store(next.log.queries, std::memory_order_relaxed);
  cookies_->reload(next.cookies);
  subnet_trust_.publish(subnet_trust_table(next.client_subnet));
  for (const auto& service : services_) {
    auto reloaded = service->reload(next);
    if (!reloaded) {
      logger_.error("reload.service_failed", {{"service", service->name()}, {"reason", reloaded.error().message}});
    }
  }
  if (!same_listeners(next)) {
    logger_.warn("reload.restart_needed", {{"reason", "listen, threads and tcp settings change only on restart"}});
  }
  logger_.info("reload.ok", {{"zones", std::to_string(load.loaded.size())}});
  load = {};
}

bool Server::same_listeners(const config::Config& next) const {
  if (next.listen.size() != config_.listen.size() || next.threads != config_.threads || next.tcp != config_.tcp) {
    return false;
  }
  for (std::size_t i = 0; i < next.listen.size(); ++i) {
    if (next.listen[i].text != config_.listen[i].text) return false;
  }
  return true;
}

void Server::stop_services() {
  for (auto it = services_.rbegin(); it != services_.rend(); ++it) {
    (*it)->stop();
    logger_.info("service.stopped", {{"service", (*it)->name()}});
  }
}

}  // namespace cutover::server
