// NOTIFY sending: one queue, one thread; a burst of writes to a zone collapses into one NOTIFY.
#include "replication/primary/notifier.h"

#include <algorithm>

#include "client/query.h"
#include "dns/message.h"
#include "store/store.h"
#include "tsig/tsig.h"

namespace cutover::replication {
namespace {

constexpr int kAttempts = 5;  // RFC 1996 §3.6 leaves the count to us
constexpr std::chrono::milliseconds kTimeout{1000};

// One NOTIFY and its reply. With a key the NOTIFY is signed and the reply must verify: an
// unsigned or badly signed reply does not count as an acknowledgement (RFC 8945 §5.3.1).
base::Status notify_once(const net::SocketAddress& target, const dns::Message& message,
                         const std::optional<tsig::Key>& key, const client::QueryOptions& options) {
  if (!key) {
    auto reply = client::exchange(target, message, options);
    if (!reply) return reply.error();
    return {};
  }
  std::vector<std::uint8_t> wire = dns::encode_message(message);
  tsig::ResponseVerifier verifier(*key, tsig::sign_request(wire, *key, tsig::unix_now()));
  auto reply = client::exchange(target, message, wire, options);
  if (!reply) return reply.error();
  if (auto verified = verifier.verify(reply->wire, tsig::unix_now()); !verified) return verified.error();
  if (!verifier.complete()) return base::make_error(base::ErrorCode::kInvalidArgument, "NOTIFY reply is not TSIG-signed");
  return {};
}

}  // namespace

Notifier::Notifier(std::map<std::string, NotifyTargets> targets, base::Logger& logger)
    : targets_(std::move(targets)), logger_(logger) {}

Notifier::~Notifier() { stop(); }

void Notifier::start() {
  if (!targets_.empty()) thread_ = std::thread([this] { run(); });
}

void Notifier::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Notifier::changed(const dns::Name& zone, std::uint32_t serial) { changed(store::zone_key(zone), zone, serial); }

void Notifier::changed(const std::string& key, const dns::Name& zone, std::uint32_t serial) {
  if (targets_.count(key) == 0) return;
  {
    std::lock_guard lock(mutex_);
    auto same = std::find_if(queue_.begin(), queue_.end(), [&](const Pending& p) { return p.key == key; });
    if (same != queue_.end()) {
      same->serial = serial;  // secondaries fetch the newest serial anyway
    } else {
      queue_.push_back({key, zone, serial});
    }
  }
  wake_.notify_one();
}

void Notifier::run() {
  while (true) {
    Pending pending;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      pending = queue_.front();
      queue_.pop_front();
    }
    send_all(pending);
  }
}

void Notifier::send_all(const Pending& pending) {
  dns::Message message;
  message.header.opcode = dns::Opcode::kNotify;
  message.header.aa = true;
  message.questions.push_back({pending.zone, dns::RRType::SOA, dns::RRClass::IN});
  client::QueryOptions options;
  options.timeout = kTimeout;
  options.edns = false;
  const NotifyTargets& targets = targets_.at(pending.key);
  for (const auto& target : targets.addresses) {
    std::string peer = net::format_address(target.storage);
    bool acknowledged = false;
    for (int attempt = 1; attempt <= kAttempts && !acknowledged; ++attempt) {
      {
        std::lock_guard lock(mutex_);
        if (stopping_) return;
      }
      message.header.id = static_cast<std::uint16_t>(pending.serial * 31U + static_cast<std::uint32_t>(attempt));
      auto reply = notify_once(target, message, targets.key, options);
      acknowledged = reply.ok();
      if (!acknowledged) {
        logger_.warn("xfr.notify_retry", {{"zone", pending.key}, {"target", peer},
                                          {"attempt", std::to_string(attempt)}, {"reason", reply.error().message}});
      }
    }
    logger_.info(acknowledged ? "xfr.notify_sent" : "xfr.notify_failed",
                 {{"zone", pending.key}, {"target", peer}, {"serial", std::to_string(pending.serial)}});
  }
}

}  // namespace cutover::replication
