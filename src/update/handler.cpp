// UPDATE request processing: TSIG, zone, policy, prescan, one fenced write, signed reply.
#include "update/handler.h"

#include <algorithm>

#include <fmt/format.h>

#include "tsig/tsig.h"
#include "update/prerequisites.h"
#include "update/update_message.h"
#include "update/update_section.h"

namespace cutover::update {
namespace {

using store::WriteStatus;

// The rcode a refused or failed write is answered with.
dns::Rcode write_rcode(const store::WriteResult& result) {
  switch (result.status) {
    case WriteStatus::kApplied:
    case WriteStatus::kNoChange:
    case WriteStatus::kDryRun:
      return dns::Rcode::kNoError;
    case WriteStatus::kPrecondition:
      return result.rcode;
    case WriteStatus::kNotFound:
      return dns::Rcode::kNotAuth;
    case WriteStatus::kIo:
      return dns::Rcode::kServFail;
    case WriteStatus::kConflict:
    case WriteStatus::kStale:
    case WriteStatus::kFloor:
    case WriteStatus::kInvalid:
      return dns::Rcode::kRefused;
  }
  return dns::Rcode::kServFail;
}

// Whether the store holds `zone`, without copying the zone's data as Store::view would.
bool serves(const store::Store& store, const dns::Name& zone) {
  auto names = store.zone_names();
  return std::find(names.begin(), names.end(), zone) != names.end();
}

std::string describe(const UpdateMessage& message) {
  return fmt::format("DNS UPDATE: {} prerequisites, {} updates", message.prerequisites.size(), message.updates.size());
}

}  // namespace

UpdateHandler::UpdateHandler(store::Store* store, tsig::KeyRing keys,
                             std::map<std::string, std::vector<UpdateKey>> allow_update, base::Logger& logger,
                             Clock clock)
    : store_(store),
      keys_(std::move(keys)),
      allow_update_(std::move(allow_update)),
      logger_(logger),
      clock_(clock ? std::move(clock) : Clock(tsig::unix_now)) {}

std::vector<std::uint8_t> UpdateHandler::handle(std::span<const std::uint8_t> request, const std::string& client) const {
  auto header = dns::parse_header(request);
  if (!header) return {};
  std::uint64_t now = clock_();
  auto context = tsig::verify_request(request, keys_, now);
  auto message = context ? parse_update(request) : base::Result<UpdateMessage>(context.error());
  if (!message) {
    logger_.warn("update.formerr", {{"client", client}, {"reason", message.error().message}});
    auto response = update_response(*header, nullptr, dns::RRClass::IN, dns::Rcode::kFormErr);
    if (context) tsig::ResponseSigner(*context, now).sign(response);
    return response;
  }
  std::string zone_text = message->zone.to_text();
  std::string key_text = context->signed_request ? context->request.key_name.to_text() : "";
  auto reply = [&](dns::Rcode rcode, std::string_view event, const std::string& reason) {
    logger_.log(rcode == dns::Rcode::kNoError ? base::LogLevel::kInfo : base::LogLevel::kWarn, event,
                {{"zone", zone_text}, {"client", client}, {"key", key_text}, {"rcode", dns::rcode_to_text(rcode)},
                 {"reason", reason}});
    auto response = update_response(message->header, &message->zone, message->zone_class, rcode,
                                    message->edns ? &*message->edns : nullptr, reason);
    tsig::ResponseSigner(*context, now).sign(response);
    return response;
  };
  if (context->failed()) {
    return reply(context->response_rcode(), "update.refused", "TSIG " + tsig::tsig_error_text(static_cast<std::uint16_t>(context->error)));
  }
  // The store the update writes: a view's own copy when its key picks a view that has one.
  store::Store* target = store_;
  const std::map<std::string, std::vector<UpdateKey>>* policies = &allow_update_;
  if (context->valid()) {
    for (const auto& route : views_) {
      if (std::find(route.keys.begin(), route.keys.end(), context->key->name) == route.keys.end()) continue;
      store::Store* own = route.store ? route.store() : nullptr;
      if (own != nullptr && serves(*own, message->zone)) {
        target = own;
        policies = &route.allow_update;
        zone_text += " view " + route.view;
      }
      break;
    }
  }
  if (target == nullptr) return reply(dns::Rcode::kRefused, "update.refused", "no journal configured: updates are off");
  if (message->zone_class != dns::RRClass::IN || !serves(*target, message->zone)) {
    return reply(dns::Rcode::kNotAuth, "update.refused", "not a zone served here");
  }
  auto allowed = policies->find(store::zone_key(message->zone));
  if (!context->valid()) return reply(dns::Rcode::kRefused, "update.refused", "unsigned: updates need a TSIG key");
  const UpdateKey* permitted = nullptr;
  if (allowed != policies->end()) {
    for (const auto& key : allowed->second) {
      if (key.key == context->key->name) permitted = &key;
    }
  }
  if (permitted == nullptr) return reply(dns::Rcode::kRefused, "update.refused", "key not in the zone's allow-update");
  if (auto failure = check_prerequisite_format(*message)) {
    return reply(failure->rcode, "update.refused", failure->message);
  }
  if (auto failure = prescan_updates(*message)) return reply(failure->rcode, "update.refused", failure->message);

  store::WriteRequest write;
  write.zone = message->zone;
  write.edits = update_edits(*message);
  write.skip_ignored_edits = true;
  // RFC 2136 §3.4.2.4 lets an update delete every address of a name; the floor refuses that
  // unless the zone's policy for this key says the controller owns such deletions.
  write.allow_empty = permitted->allow_empty;
  const UpdateMessage& checked = *message;
  write.precondition = [&checked](const store::ZoneData& current) { return evaluate_prerequisites(checked, current); };
  write.who = fmt::format("tsig:{} {}", key_text, client);
  write.what = describe(*message);
  store::WriteResult result = target->write(std::move(write));
  dns::Rcode rcode = write_rcode(result);
  if (rcode != dns::Rcode::kNoError) {
    std::string reason = result.message;
    if (result.status == WriteStatus::kFloor) {
      reason += fmt::format(" (an UPDATE does that with allow-update: [{{key: {}, allow-empty: true}}])", key_text);
    }
    return reply(rcode, "update.refused", reason);
  }
  return reply(rcode, "update.applied",
               result.status == WriteStatus::kNoChange ? "nothing to change" : fmt::format("serial {}", result.serial));
}

}  // namespace cutover::update
