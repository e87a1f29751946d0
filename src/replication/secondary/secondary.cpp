// The secondary's worker: timers, SOA checks, transfers with fallback, transfer-in writes.
#include "replication/secondary/secondary.h"

#include <algorithm>

#include <fmt/format.h>

#include "dns/rdata.h"
#include "store/serial.h"

namespace cutover::replication {
namespace {

using Clock = std::chrono::steady_clock;

PullOptions pull_options(const SecondaryZone& zone) {
  PullOptions options;
  options.max_bytes = zone.max_transfer_bytes;
  options.key = zone.key;
  return options;
}

// Errors after which a second request in another form cannot do better.
bool worth_axfr_fallback(const base::Error& error) {
  return error.code != base::ErrorCode::kLimit && error.code != base::ErrorCode::kTimeout &&
         error.code != base::ErrorCode::kIo;
}

std::string milliseconds_since(Clock::time_point start) {
  return std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count());
}

}  // namespace

Secondary::Secondary(std::vector<SecondaryZone> zones, store::Store& store, base::Logger& logger,
                     std::shared_ptr<const base::Clock> clock)
    : store_(store), logger_(logger), clock_(std::move(clock)) {
  for (auto& zone : zones) zones_.push_back({std::move(zone), ZoneTimers::without_copy(clock_->now())});
}

std::shared_ptr<const zone::Zone> Secondary::first_copy(std::shared_ptr<const zone::Zone> loaded) {
  std::string key = store::zone_key(loaded->origin());
  bool secondary = std::any_of(zones_.begin(), zones_.end(), [&](const ZoneState& zone) {
    return store::zone_key(zone.config.origin) == key;
  });
  if (!secondary) return loaded;
  return first_copies_.try_emplace(key, std::move(loaded)).first->second;
}

Secondary::~Secondary() { stop(); }

void Secondary::start() {
  auto now = clock_->now();
  for (auto& zone : zones_) {
    auto view = store_.view(zone.config.origin);
    auto soa = view ? view->data.soa() : base::Result<dns::SoaFields>(view.error());
    // A placeholder that no transfer replaced yet is not a copy; a zone file or a journal
    // that replayed a transfer is, until its EXPIRE.
    bool has_copy = soa && !(zone.config.starts_empty && view->version == 0);
    zone.timers = has_copy ? ZoneTimers::with_copy(now, *soa) : ZoneTimers::without_copy(now);
  }
  publish_unusable();
  thread_ = std::thread([this] { run(); });
}

void Secondary::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Secondary::notified(const dns::Name& zone) {
  {
    std::lock_guard lock(mutex_);
    notified_.insert(store::zone_key(zone));
  }
  wake_.notify_all();
}

void Secondary::run() {
  while (true) {
    std::set<std::string> notified;
    {
      std::unique_lock lock(mutex_);
      auto now = clock_->now();
      auto next = now + std::chrono::hours(24);
      for (const auto& zone : zones_) {
        next = std::min(next, zone.timers.next_check());
        if (!zone.timers.unusable(now)) next = std::min(next, zone.timers.expires_at());
      }
      if (next > now) wake_.wait_for(lock, next - now, [this] { return stopping_ || !notified_.empty(); });
      if (stopping_) return;
      notified.swap(notified_);
    }
    auto now = clock_->now();
    for (auto& zone : zones_) {
      if (notified.count(store::zone_key(zone.config.origin)) != 0) zone.timers.notified(now);
      if (zone.timers.due(now)) check(zone);
    }
    publish_unusable();
  }
}

void Secondary::publish_unusable() {
  auto now = clock_->now();
  std::vector<UnusableZone> unusable;
  for (const auto& zone : zones_) {
    if (zone.timers.unusable(now)) unusable.push_back({zone.config.origin, zone.timers.has_copy()});
  }
  if (unusable == unusable_now_) return;
  for (const auto& zone : zones_) {
    bool was = std::any_of(unusable_now_.begin(), unusable_now_.end(),
                           [&](const UnusableZone& listed) { return listed.origin == zone.config.origin; });
    bool is = zone.timers.unusable(now);
    if (was == is) continue;
    if (is && zone.timers.has_copy()) {
      logger_.error("secondary.expired", {{"zone", zone.config.origin.to_text()},
                                          {"reason", "no successful check within the SOA EXPIRE; answering SERVFAIL"}});
    } else if (is) {
      logger_.warn("secondary.no_copy", {{"zone", zone.config.origin.to_text()},
                                         {"reason", "no transfer yet; answering SERVFAIL"}});
    } else {
      logger_.info("secondary.usable", {{"zone", zone.config.origin.to_text()}});
    }
  }
  unusable_now_ = unusable;
  unusable_.set(std::move(unusable));
}

void Secondary::fail(ZoneState& zone, const std::string& stage, const std::string& reason) {
  zone.timers.failed(clock_->now());
  logger_.warn("secondary.refresh_failed", {{"zone", zone.config.origin.to_text()},
                                             {"primary", net::format_address(zone.config.primary.storage)},
                                             {"stage", stage},
                                             {"reason", reason}});
}

void Secondary::check(ZoneState& zone) {
  const dns::Name& origin = zone.config.origin;
  auto view = store_.view(origin);
  if (!view) return fail(zone, "store", view.error().message);
  auto our_soa = view->data.soa();
  if (!our_soa) return fail(zone, "store", our_soa.error().message);
  PullOptions options = pull_options(zone.config);
  std::optional<dns::ResourceRecord> current_soa;
  if (zone.timers.has_copy()) {
    auto primary_soa = query_primary_soa(zone.config.primary, origin, options);
    if (!primary_soa) return fail(zone, "soa", primary_soa.error().message);
    if (!store::serial_greater(primary_soa->serial, view->serial)) {
      if (primary_soa->serial != view->serial) {
        logger_.warn("secondary.primary_behind", {{"zone", origin.to_text()},
                                                  {"primary_serial", std::to_string(primary_soa->serial)},
                                                  {"serial", std::to_string(view->serial)}});
      }
      zone.timers.succeeded(clock_->now(), *our_soa);
      return;
    }
    current_soa = dns::ResourceRecord{origin, dns::RRType::SOA, dns::RRClass::IN, view->data.soa_ttl(),
                                      dns::encode_soa(*our_soa)};
  }
  auto started = Clock::now();
  auto pulled = pull(zone, *view, current_soa);
  if (!pulled) return fail(zone, "transfer", pulled.error().message);
  auto new_soa = pulled->data.soa();
  if (!new_soa) return fail(zone, "transfer", new_soa.error().message);
  store::WriteRequest request;
  request.zone = origin;
  request.target = std::move(pulled->data);
  request.keep_target_serial = true;
  request.allow_empty = true;  // the primary's content is the plan
  request.expected_version = view->version;  // nothing else may have changed the copy meanwhile
  request.who = "primary " + net::format_address(zone.config.primary.storage);
  request.what = fmt::format("{} serial {}", pulled->method, new_soa->serial);
  store::WriteResult result = store_.write(std::move(request));
  if (!result.ok()) return fail(zone, "apply", store::write_status_text(result.status) + ": " + result.message);
  zone.timers.succeeded(clock_->now(), *new_soa);
  logger_.info("secondary.transferred", {{"zone", origin.to_text()},
                                         {"method", pulled->method},
                                         {"serial", std::to_string(new_soa->serial)},
                                         {"from_serial", std::to_string(view->serial)},
                                         {"messages", std::to_string(pulled->transfer.messages)},
                                         {"bytes", std::to_string(pulled->transfer.bytes)},
                                         {"ms", milliseconds_since(started)}});
}

base::Result<Secondary::Pulled> Secondary::pull(const ZoneState& zone, const store::ZoneView& view,
                                                const std::optional<dns::ResourceRecord>& current_soa) {
  PullOptions options = pull_options(zone.config);
  const dns::Name& origin = zone.config.origin;
  if (current_soa) {
    std::string reason;
    auto transfer = request_transfer(zone.config.primary, origin, current_soa, options);
    if (!transfer) {
      if (!worth_axfr_fallback(transfer.error())) return transfer.error();
      reason = transfer.error().message;
    } else if (transfer->kind == TransferKind::kUpToDate) {
      reason = "the primary sent its SOA alone, yet its serial is newer";
    } else {
      auto next = apply_transfer(*transfer, view.data);
      if (next) {
        std::string method = transfer->kind == TransferKind::kFull ? "ixfr-full" : "ixfr";
        return Pulled{std::move(*next), method, std::move(*transfer)};
      }
      reason = next.error().message;
    }
    logger_.info("secondary.ixfr_fallback", {{"zone", origin.to_text()}, {"reason", reason}});
  }
  auto transfer = request_transfer(zone.config.primary, origin, std::nullopt, options);
  if (!transfer) return transfer.error();
  auto next = apply_transfer(*transfer, view.data);
  if (!next) return next.error();
  return Pulled{std::move(*next), "axfr", std::move(*transfer)};
}

}  // namespace cutover::replication
