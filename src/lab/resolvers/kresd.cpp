// Knot Resolver 5 adapter: `kresd -n -c kresd.conf DIR` with a Lua config. It has no separate
// negative-TTL cap, and its serve_stale window is set by replacing the module's callback.
// introspect() sends one Lua expression to the control socket kresd opens in DIR/control/PID
// (Knot Resolver 5 docs, "Control sockets"): the cache settings (cache.min_ttl(), max_ttl(),
// count()) and, for the case's names, what libkres's kr_cache_peek_exact finds (remaining TTL,
// rank, whether a whole packet is stored), declared through LuaJIT's FFI because kresd 5's
// cache.get() is not implemented.
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "base/clock.h"
#include "lab/resolvers/cache_dumps.h"
#include "lab/resolvers/resolver.h"

namespace cutover::lab {
namespace {

constexpr std::int64_t kControlTimeoutNs = 3'000'000'000;

// Sends `line` to the control socket at `path` and returns what kresd answers (its "> "
// prompts included), or an error text starting with "error: ".
std::string ask_control_socket(const std::string& path, const std::string& line) {
  sockaddr_un address{};
  if (path.size() >= sizeof address.sun_path) return "error: the control socket path is too long: " + path;
  address.sun_family = AF_UNIX;
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return "error: socket(): " + std::string(std::strerror(errno));
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    std::string error = "error: connect " + path + ": " + std::strerror(errno);
    ::close(fd);
    return error;
  }
  std::string request = line + "\n";
  for (std::size_t sent = 0; sent < request.size();) {
    ssize_t wrote = ::write(fd, request.data() + sent, request.size() - sent);
    if (wrote <= 0) break;
    sent += static_cast<std::size_t>(wrote);
  }
  ::shutdown(fd, SHUT_WR);
  // The reply ends when kresd closes the connection (after our end of input) or prompts again.
  std::string reply;
  std::int64_t deadline = base::monotonic_ns() + kControlTimeoutNs;
  while (base::monotonic_ns() < deadline) {
    pollfd ready{fd, POLLIN, 0};
    if (::poll(&ready, 1, 100) <= 0) continue;
    char buffer[4096];
    ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got <= 0) break;
    reply.append(buffer, static_cast<std::size_t>(got));
    if (reply.size() > 2 && reply.find('\'') != std::string::npos && reply.compare(reply.size() - 2, 2, "> ") == 0) break;
  }
  ::close(fd);
  return reply;
}

// The Lua expression introspect() sends: one string, "min_ttl=N max_ttl=N count=N", then
// "|name type remaining ttl rank packet rcode" for each entry found (cache_dumps.h).
std::string introspection_expression(const std::vector<std::string>& names) {
  std::string list;
  for (const auto& name : names) {
    if (name.find_first_of("'\\") != std::string::npos) continue;
    list += (list.empty() ? "'" : ", '") + name + "'";
  }
  return "(function() local ffi = require('ffi') "
         "pcall(ffi.cdef, 'struct lab_cache_p { uint32_t time; uint32_t ttl; uint8_t rank; void *raw_data, *raw_bound; }; "
         "int kr_cache_peek_exact(struct kr_cache *, const knot_dname_t *, uint16_t, struct lab_cache_p *);') "
         "local out = { string.format('min_ttl=%d max_ttl=%d count=%d', cache.min_ttl(), cache.max_ttl(), cache.count()) } "
         "local now = os.time() local c = kres.context().cache "
         "for _, n in ipairs({" + list + "}) do for _, t in ipairs({'A', 'AAAA', 'CNAME', 'NS', 'SOA', 'TXT'}) do "
         "local p = ffi.new('struct lab_cache_p') "
         "if ffi.C.kr_cache_peek_exact(c, todname(n), kres.type[t], p) == 0 then "
         // struct entry_h (lib/cache/impl.h): time, ttl, a byte of rank:6 is_packet:1, a pad
         // byte, then for a packet its 2-byte length and the wire message (rcode in byte 3).
         "local raw = ffi.cast('const uint8_t *', p.raw_data) local packet = bit.band(bit.rshift(raw[8], 6), 1) "
         "local rcode = -1 if packet == 1 and ffi.cast('const uint8_t *', p.raw_bound) - raw >= 16 then "
         "rcode = bit.band(raw[15], 15) end "
         "table.insert(out, string.format('%s %s %d %d %d %d %d', n, t, p.time + p.ttl - now, p.ttl, p.rank, packet, rcode)) "
         "end end end return table.concat(out, '|') end)()";
}

class Kresd : public ResolverAdapter {
 public:
  std::string name() const override { return "kresd"; }
  std::string program() const override { return "kresd"; }
  std::string package() const override { return "knot-resolver"; }
  std::string unsupported(const ResolverConfig& config) const override {
    if (config.cache.negative_cap) return "Knot Resolver 5 has no cap for negative answers alone";
    return {};
  }

  LaunchPlan plan(const std::string& dir, std::uint16_t port, const ResolverConfig& config) const override {
    const CacheSettings& cache = config.cache;
    std::string conf = fmt::format(
        "net.ipv6 = false\n"
        "net.listen('127.0.0.1', {}, {{ kind = 'dns' }})\n"
        "pcall(function() trust_anchors.remove('.') end)\n"
        "option('NO_MINIMIZE', true)\n"
        "cache.open(32 * MB, 'lmdb://{}/cache')\n"
        "policy.add(policy.all(policy.FLAGS({{'ALLOW_LOCAL'}})))\n",
        port, dir);
    // E14: the lab root's DS as the only trust anchor (the default root key was removed above).
    if (!config.trust_anchor.empty()) conf += fmt::format("trust_anchors.add('. DS {}')\n", config.trust_anchor);
    if (cache.ttl_floor) conf += fmt::format("cache.min_ttl({})\n", *cache.ttl_floor);
    if (cache.ttl_cap) conf += fmt::format("cache.max_ttl({})\n", *cache.ttl_cap);
    if (cache.stale_window) {
      // The module's own callback allows one day of staleness; this one allows the window.
      conf += fmt::format(
          "local ffi = require('ffi')\nmodules.load('serve_stale < cache')\n"
          "serve_stale.callback = ffi.cast('kr_stale_cb', function(ttl) if ttl + {} > 0 then return 1 end "
          "return -1 end)\n",
          *cache.stale_window);
    }
    if (config.upstream.kind == Upstream::Kind::kStub) {
      conf += fmt::format("policy.add(policy.suffix(policy.STUB({{'{}@{}'}}), {{todname('{}')}}))\n",
                          config.upstream.host, config.upstream.port, config.upstream.zone);
    } else {
      conf += fmt::format("modules.load('hints > iterate')\nhints.root({{['{}'] = '{}'}})\n", config.upstream.root_name,
                          config.upstream.host);
    }
    // --resolver-option lines are Lua lines of the config, run after the lab's own.
    for (const auto& line : config.extra_lines) conf += line + "\n";
    LaunchPlan plan;
    plan.files.emplace_back("kresd.conf", conf);
    plan.argv = {"kresd", "-n", "-c", dir + "/kresd.conf", dir};
    return plan;
  }

  nlohmann::json introspect(const std::string& dir, const std::vector<std::string>& names) const override {
    std::error_code error;
    std::string socket;
    for (const auto& entry : std::filesystem::directory_iterator(dir + "/control", error)) {
      if (entry.is_socket(error)) socket = entry.path().string();
    }
    if (socket.empty()) return {{"available", false}, {"reason", "kresd opened no control socket in " + dir + "/control"}};
    std::string reply = ask_control_socket(socket, introspection_expression(names));
    if (reply.rfind("error: ", 0) == 0) return {{"available", false}, {"reason", reply.substr(7)}};
    nlohmann::json state = parse_kresd_control_reply(reply);
    if (!state.value("found", false)) {
      std::string first = reply.substr(0, reply.find('\n', reply.find_first_not_of("> \n")));
      return {{"available", false}, {"reason", "kresd's control socket answered: " + first}};
    }
    state.erase("found");
    state["available"] = true;
    state["source"] = "kresd control socket (cache.min_ttl(), cache.max_ttl(), cache.count(), kr_cache_peek_exact)";
    return state;
  }

 protected:
  std::vector<std::string> version_command() const override { return {"kresd", "--version"}; }
};

}  // namespace

ResolverKind kresd_resolver() { return {"kresd", true, without_options<Kresd>}; }

}  // namespace cutover::lab
