// EtcdClient: JSON requests to /v3/ on one member after another.
#include "cluster/etcd_client.h"

#include <httplib.h>

#include <charconv>
#include <future>
#include <optional>

#include <fmt/format.h>

#include "dns/base_encoding.h"

namespace cutover::cluster {
namespace {

// Replies are small (one key, one lease); a larger one is not etcd's.
constexpr std::size_t kMaxReply = 16 << 20;

std::string encode(std::string_view text) {
  return dns::base64_encode(std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

std::string decode(const nlohmann::json& field) {
  if (!field.is_string()) return {};
  std::vector<std::uint8_t> bytes;
  if (!dns::base64_decode(field.get<std::string>(), bytes)) return {};
  return std::string(bytes.begin(), bytes.end());
}

// The gateway writes int64 fields as JSON strings and leaves out zero values.
std::int64_t number(const nlohmann::json& object, const char* name) {
  if (!object.is_object() || !object.contains(name)) return 0;
  const auto& field = object[name];
  if (field.is_number_integer()) return field.get<std::int64_t>();
  if (!field.is_string()) return 0;
  std::int64_t value = 0;
  const std::string text = field.get<std::string>();
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

KeyValue key_value(const nlohmann::json& kv) {
  return KeyValue{decode(kv.value("key", nlohmann::json())), decode(kv.value("value", nlohmann::json())),
                  number(kv, "create_revision"), number(kv, "mod_revision"), number(kv, "lease")};
}

bool grpc_not_found(const nlohmann::json& reply) {
  // gRPC code 5 (NOT_FOUND): "etcdserver: requested lease not found".
  return reply.is_object() && number(reply, "code") == 5;
}

// The gateway's chunked replies end with a gRPC trailer that some HTTP readers hand over
// as part of the body: the JSON document ends at its last '}'.
nlohmann::json parse_reply(const std::string& body) {
  auto parsed = nlohmann::json::parse(body, nullptr, false);
  if (!parsed.is_discarded()) return parsed;
  auto end = body.rfind('}');
  if (end == std::string::npos) return parsed;
  return nlohmann::json::parse(body.substr(0, end + 1), nullptr, false);
}

// One POST of a JSON body to `member` (the gateway's only method); the reply's body goes to
// `receive` as it arrives. No write timeout: httplib's default, when `write` is not given.
bool post_json(const EtcdMember& member, const std::string& path, const std::string& body,
               std::chrono::microseconds connect, std::chrono::microseconds read,
               std::optional<std::chrono::microseconds> write, httplib::ContentReceiverWithProgress receive,
               httplib::Response& response, httplib::Error& error) {
  httplib::Client client(member.host, member.port);
  client.set_connection_timeout(connect);
  client.set_read_timeout(read);
  if (write) client.set_write_timeout(*write);
  httplib::Request request;
  request.method = "POST";
  request.path = path;
  request.body = body;
  request.set_header("Content-Type", "application/json");
  request.content_receiver = std::move(receive);
  return client.send(request, response, error);
}

}  // namespace

std::string EtcdMember::url() const {
  return host.find(':') != std::string::npos ? fmt::format("http://[{}]:{}", host, port)
                                             : fmt::format("http://{}:{}", host, port);
}

base::Result<std::vector<EtcdMember>> parse_etcd_urls(std::string_view list) {
  std::vector<EtcdMember> out;
  while (!list.empty()) {
    auto comma = list.find(',');
    std::string_view item = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    if (item.empty()) continue;
    std::string_view rest = item;
    if (rest.starts_with("http://")) {
      rest.remove_prefix(7);
    } else if (rest.find("://") != std::string_view::npos) {
      return base::make_error(base::ErrorCode::kUnsupported,
                              fmt::format("etcd URL {}: only http:// is supported (the JSON gateway without TLS)", item));
    }
    while (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
    EtcdMember member;
    std::string_view port_text;
    if (rest.starts_with("[")) {
      auto close = rest.find(']');
      if (close == std::string_view::npos || close + 1 >= rest.size() || rest[close + 1] != ':') {
        return base::make_error(base::ErrorCode::kMalformed, fmt::format("etcd URL {}: expected [ADDRESS]:PORT", item));
      }
      member.host = std::string(rest.substr(1, close - 1));
      port_text = rest.substr(close + 2);
    } else {
      auto colon = rest.rfind(':');
      if (colon == std::string_view::npos) {
        return base::make_error(base::ErrorCode::kMalformed, fmt::format("etcd URL {}: expected HOST:PORT", item));
      }
      member.host = std::string(rest.substr(0, colon));
      port_text = rest.substr(colon + 1);
    }
    unsigned port = 0;
    auto [end, error] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (error != std::errc() || end != port_text.data() + port_text.size() || port == 0 || port > 65535 ||
        member.host.empty()) {
      return base::make_error(base::ErrorCode::kMalformed, fmt::format("etcd URL {}: expected a port from 1 to 65535", item));
    }
    member.port = static_cast<std::uint16_t>(port);
    out.push_back(std::move(member));
  }
  if (out.empty()) return base::make_error(base::ErrorCode::kInvalidArgument, "no etcd URL given");
  return out;
}

std::string prefix_end(std::string_view prefix) {
  std::string end(prefix);
  while (!end.empty()) {
    auto last = static_cast<unsigned char>(end.back());
    if (last < 0xff) {
      end.back() = static_cast<char>(last + 1);
      return end;
    }
    end.pop_back();
  }
  return std::string(1, '\0');  // every key (etcd's "\0" range end)
}

EtcdClient::EtcdClient(std::vector<EtcdMember> members, std::chrono::milliseconds timeout)
    : members_(std::move(members)), timeout_(timeout) {}

std::string EtcdClient::current_member() const { return members_[current_.load() % members_.size()].url(); }

base::Result<nlohmann::json> EtcdClient::call(const std::string& path, const nlohmann::json& body) {
  std::string last_error;
  const std::size_t first = current_.load();
  for (std::size_t attempt = 0; attempt < members_.size(); ++attempt) {
    const std::size_t index = (first + attempt) % members_.size();
    const EtcdMember& member = members_[index];
    // The gateway ends an error reply with a chunked-encoding trailer that httplib cannot
    // read (it reports a read error after the body): the body is collected as it arrives
    // and used whenever the status line and a whole JSON document came through.
    std::string collected;
    const std::chrono::microseconds timeout = timeout_;
    httplib::Response response;
    httplib::Error error = httplib::Error::Success;
    bool sent = post_json(
        member, path, body.dump(), timeout, timeout, timeout,
        [&](const char* data, std::size_t length, std::uint64_t, std::uint64_t) {
          collected.append(data, length);
          return collected.size() < kMaxReply;
        },
        response, error);
    auto parsed = parse_reply(collected);
    if (!sent && (response.status <= 0 || parsed.is_discarded())) {
      last_error = fmt::format("{}: {}", member.url(), httplib::to_string(error));
      continue;
    }
    if (response.status >= 500 && response.status != 501) {
      last_error = fmt::format("{}: HTTP {} {}", member.url(), response.status, collected.substr(0, 200));
      continue;
    }
    if (parsed.is_discarded()) {
      last_error = fmt::format("{}: HTTP {} with a body that is not JSON", member.url(), response.status);
      continue;
    }
    current_.store(index);
    if (response.status != 200) {
      if (grpc_not_found(parsed)) return base::make_error(base::ErrorCode::kNotFound, parsed.value("message", "not found"));
      return base::make_error(base::ErrorCode::kInvalidArgument,
                              fmt::format("etcd {} {}: HTTP {} {}", member.url(), path, response.status,
                                          parsed.value("message", collected.substr(0, 200))));
    }
    return parsed;
  }
  return base::make_error(base::ErrorCode::kIo, fmt::format("no etcd member answered {} (last: {})", path, last_error));
}

base::Result<std::int64_t> EtcdClient::grant(std::chrono::seconds ttl) {
  auto reply = call("/v3/lease/grant", {{"TTL", ttl.count()}});
  if (!reply) return reply.error();
  std::int64_t id = number(*reply, "ID");
  if (id == 0) return base::make_error(base::ErrorCode::kMalformed, "etcd granted a lease without an ID");
  return id;
}

base::Status EtcdClient::keepalive(std::int64_t lease) {
  auto reply = call("/v3/lease/keepalive", {{"ID", std::to_string(lease)}});
  if (!reply) return reply.error();
  // A stream on the gateway: one message, {"result": {...}}.
  const nlohmann::json& result = reply->contains("result") ? (*reply)["result"] : *reply;
  if (number(result, "TTL") <= 0) {
    return base::make_error(base::ErrorCode::kNotFound, fmt::format("etcd lease {:x} has expired", lease));
  }
  return {};
}

base::Result<std::int64_t> EtcdClient::put(const std::string& key, const std::string& value, std::int64_t lease) {
  nlohmann::json body{{"key", encode(key)}, {"value", encode(value)}};
  if (lease != 0) body["lease"] = std::to_string(lease);
  auto reply = call("/v3/kv/put", body);
  if (!reply) return reply.error();
  return number(reply->value("header", nlohmann::json::object()), "revision");
}

base::Result<RangeResult> EtcdClient::range_prefix(const std::string& prefix) {
  return range(prefix, prefix_end(prefix));
}

base::Result<RangeResult> EtcdClient::range(const std::string& key, const std::string& range_end) {
  nlohmann::json body{{"key", encode(key)}};
  if (!range_end.empty()) body["range_end"] = encode(range_end);
  auto reply = call("/v3/kv/range", body);
  if (!reply) return reply.error();
  RangeResult out;
  out.revision = number(reply->value("header", nlohmann::json::object()), "revision");
  for (const auto& kv : reply->value("kvs", nlohmann::json::array())) out.kvs.push_back(key_value(kv));
  return out;
}

base::Result<std::int64_t> EtcdClient::delete_range(const std::string& key, const std::string& range_end) {
  auto reply = call("/v3/kv/deleterange", {{"key", encode(key)}, {"range_end", encode(range_end)}});
  if (!reply) return reply.error();
  return number(*reply, "deleted");
}

base::Result<TxnResult> EtcdClient::txn(const std::vector<TxnCompare>& compares, const std::vector<TxnPut>& puts) {
  nlohmann::json compare = nlohmann::json::array();
  for (const auto& item : compares) {
    bool create = item.target == TxnCompare::Target::kCreateRevision;
    compare.push_back({{"key", encode(item.key)},
                       {"result", "EQUAL"},
                       {"target", create ? "CREATE" : "MOD"},
                       {create ? "create_revision" : "mod_revision", std::to_string(item.revision)}});
  }
  nlohmann::json success = nlohmann::json::array();
  for (const auto& put : puts) {
    success.push_back({{"request_put", {{"key", encode(put.key)}, {"value", encode(put.value)}}}});
  }
  auto reply = call("/v3/kv/txn", {{"compare", compare}, {"success", success}});
  if (!reply) return reply.error();
  // The gateway leaves out false booleans: no "succeeded" is a failed comparison.
  return TxnResult{reply->value("succeeded", false), number(reply->value("header", nlohmann::json::object()), "revision")};
}

base::Result<std::int64_t> EtcdClient::watch_prefix(const std::string& prefix, std::int64_t start_revision,
                                                    const EventsFn& on_events, const std::function<bool()>& stop,
                                                    std::chrono::milliseconds idle) {
  nlohmann::json body{{"create_request",
                       {{"key", encode(prefix)}, {"range_end", encode(prefix_end(prefix))},
                        {"start_revision", std::to_string(start_revision)}}}};
  std::string last_error;
  const std::size_t first = current_.load();
  for (std::size_t attempt = 0; attempt < members_.size(); ++attempt) {
    const std::size_t index = (first + attempt) % members_.size();
    const EtcdMember& member = members_[index];
    std::int64_t seen = start_revision - 1;
    bool accepted = false;
    std::string buffer;
    auto receive = [&](const char* data, std::size_t length, std::uint64_t, std::uint64_t) {
      buffer.append(data, length);
      // One JSON message per line ({"result": {...}}); a message may arrive in pieces.
      std::size_t newline = 0;
      while ((newline = buffer.find('\n')) != std::string::npos) {
        auto message = nlohmann::json::parse(buffer.substr(0, newline), nullptr, false);
        buffer.erase(0, newline + 1);
        if (message.is_discarded() || !message.contains("result")) continue;
        const auto& result = message["result"];
        accepted = true;
        if (result.value("canceled", false)) return false;  // compacted away, or refused
        std::int64_t revision = number(result.value("header", nlohmann::json::object()), "revision");
        std::vector<WatchEvent> events;
        for (const auto& event : result.value("events", nlohmann::json::array())) {
          WatchEvent out;
          out.deleted = event.value("type", std::string()) == "DELETE";
          out.kv = key_value(event.value("kv", nlohmann::json::object()));
          seen = std::max(seen, out.kv.mod_revision);
          events.push_back(std::move(out));
        }
        if (!events.empty()) on_events(events, revision);
      }
      return !stop();
    };
    httplib::Response response;
    httplib::Error error = httplib::Error::Success;
    bool sent = post_json(member, "/v3/watch", body.dump(), timeout_, idle, std::nullopt, receive, response, error);
    if (accepted) {
      current_.store(index);
      return seen;
    }
    if (stop()) return seen;
    last_error = sent ? fmt::format("{}: HTTP {}", member.url(), response.status)
                      : fmt::format("{}: {}", member.url(), httplib::to_string(error));
  }
  return base::make_error(base::ErrorCode::kIo, fmt::format("no etcd member accepted the watch (last: {})", last_error));
}

base::Result<nlohmann::json> EtcdClient::maintenance_status() { return call("/v3/maintenance/status", nlohmann::json::object()); }

std::vector<MemberStatus> member_statuses(const std::vector<EtcdMember>& members, std::chrono::milliseconds timeout) {
  std::vector<std::future<MemberStatus>> asked;
  for (const auto& member : members) {
    asked.push_back(std::async(std::launch::async, [member, timeout] {
      MemberStatus out;
      out.url = member.url();
      EtcdClient one({member}, timeout);
      auto reply = one.maintenance_status();
      if (!reply) {
        out.error = reply.error().message;
        return out;
      }
      const auto& body = *reply;
      const auto header = body.value("header", nlohmann::json::object());
      auto text = [](const nlohmann::json& object, const char* name) {
        if (!object.contains(name)) return std::string();
        return object[name].is_string() ? object[name].get<std::string>() : object[name].dump();
      };
      out.reached = true;
      out.member_id = text(header, "member_id");
      out.leader_id = text(body, "leader");
      out.leader = !out.member_id.empty() && out.member_id == out.leader_id;
      out.revision = number(header, "revision");
      out.raft_term = number(body, "raftTerm");
      out.raft_index = number(body, "raftIndex");
      out.db_size = number(body, "dbSize");
      out.version = text(body, "version");
      return out;
    }));
  }
  std::vector<MemberStatus> out;
  for (auto& one : asked) out.push_back(one.get());
  return out;
}

nlohmann::json member_statuses_json(const std::vector<MemberStatus>& statuses) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& one : statuses) {
    if (!one.reached) {
      out.push_back({{"url", one.url}, {"reached", false}, {"error", one.error}});
      continue;
    }
    out.push_back({{"url", one.url},
                   {"reached", true},
                   {"member_id", one.member_id},
                   {"leader", one.leader},
                   {"leader_id", one.leader_id},
                   {"revision", one.revision},
                   {"raft_term", one.raft_term},
                   {"raft_index", one.raft_index},
                   {"db_size", one.db_size},
                   {"version", one.version}});
  }
  return out;
}

}  // namespace cutover::cluster
