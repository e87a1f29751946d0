// AXFR/IXFR answers with ACL checks, and NOTIFY acknowledgement.
#include "replication/primary/responder.h"

#include <netinet/in.h>

#include <cstring>
#include <ctime>

#include "auth/online_signing.h"
#include "auth/views.h"
#include "dns/edns_options.h"
#include "net/address.h"

namespace cutover::replication {
namespace {

using net::Intercept;

// RFC 1035 §4.1.1: opcode in bits 3-6 of the third header byte.
dns::Opcode opcode_of(std::span<const std::uint8_t> query) {
  return static_cast<dns::Opcode>((query[2] >> 3) & 0x0F);
}

Messages error_reply(const dns::Message& query, dns::Rcode rcode) { return pack_messages(query, {}, rcode); }

// A refusal that says why: with an OPT carrying an Extended DNS Error when the query had an
// OPT (RFC 8914 §3; the DO bit copied, RFC 3225 §3).
Messages error_reply(const dns::Message& query, dns::Rcode rcode, dns::ExtendedError code, std::string_view text) {
  if (!query.edns) return error_reply(query, rcode);
  dns::Message reply;
  reply.header.id = query.header.id;
  reply.header.qr = true;
  reply.header.opcode = query.header.opcode;
  reply.header.rcode = static_cast<std::uint8_t>(rcode);
  reply.questions = query.questions;
  dns::Edns edns;
  edns.dnssec_ok = query.edns->dnssec_ok;
  dns::add_extended_error(edns, code, text);
  reply.edns = std::move(edns);
  return {dns::encode_message(reply)};
}

// Same IP address, whatever the ports (a NOTIFY comes from any source port).
bool same_host(const sockaddr_storage& a, const sockaddr_storage& b) {
  if (a.ss_family != b.ss_family) return false;
  if (a.ss_family == AF_INET) {
    return reinterpret_cast<const sockaddr_in&>(a).sin_addr.s_addr == reinterpret_cast<const sockaddr_in&>(b).sin_addr.s_addr;
  }
  const auto& a6 = reinterpret_cast<const sockaddr_in6&>(a).sin6_addr;
  const auto& b6 = reinterpret_cast<const sockaddr_in6&>(b).sin6_addr;
  return std::memcmp(&a6, &b6, sizeof(a6)) == 0;
}

// The type of a standard query's single question, read from the raw bytes; nullopt for
// anything else (a response, another opcode, several questions, a compressed name).
std::optional<dns::RRType> single_question_type(std::span<const std::uint8_t> query) {
  if (opcode_of(query) != dns::Opcode::kQuery || query[4] != 0 || query[5] != 1) return std::nullopt;
  std::size_t pos = dns::kHeaderSize;
  while (pos < query.size() && query[pos] != 0) {
    if ((query[pos] & 0xC0) != 0) return std::nullopt;  // no compression in a question
    pos += query[pos] + 1U;
  }
  if (pos + 3 > query.size()) return std::nullopt;
  return static_cast<dns::RRType>((query[pos + 1] << 8) | query[pos + 2]);
}

}  // namespace

bool is_replication_request(std::span<const std::uint8_t> query) {
  if (query.size() < dns::kHeaderSize || (query[2] & 0x80) != 0) return false;  // too short, or a response
  dns::Opcode opcode = opcode_of(query);
  if (opcode == dns::Opcode::kNotify || opcode == dns::Opcode::kUpdate) return true;
  auto type = single_question_type(query);
  return type == dns::RRType::AXFR || type == dns::RRType::IXFR;
}

bool may_be_signed_soa_query(std::span<const std::uint8_t> query) {
  if (query.size() < dns::kHeaderSize || (query[2] & 0x80) != 0) return false;
  bool has_additional = query[10] != 0 || query[11] != 0;
  return has_additional && single_question_type(query) == dns::RRType::SOA;
}

Responder::Responder(ZonesSnapshot zones, store::Store* store, std::map<std::string, config::ZoneReplicationConfig> acls,
                     base::Logger& logger)
    : zones_(std::move(zones)), store_(store), acls_(std::move(acls)), logger_(logger) {}

const config::ZoneReplicationConfig* Responder::settings(const dns::Name& zone) const {
  auto found = acls_.find(store::zone_key(zone));
  return found == acls_.end() ? nullptr : &found->second;
}

Intercept Responder::handle(std::span<const std::uint8_t> query, net::Transport transport,
                            const sockaddr_storage& client, Messages& responses) const {
  if (!is_replication_request(query)) {
    if (transport == net::Transport::kTcp && may_be_signed_soa_query(query)) return signed_soa(query, responses);
    return Intercept::kContinue;
  }
  dns::Opcode opcode = opcode_of(query);
  if (opcode == dns::Opcode::kUpdate) return Intercept::kContinue;  // the update handler runs first when enabled
  auto message = dns::parse_message(query);
  if (!message) {
    if (opcode != dns::Opcode::kNotify) return Intercept::kContinue;  // the engine answers FORMERR
    return Intercept::kDrop;
  }
  if (message->questions.size() != 1) return Intercept::kContinue;
  std::uint64_t now = tsig::unix_now();
  tsig::RequestContext signed_by;
  const auto* config = settings(message->questions.front().name);
  bool notify_request = opcode == dns::Opcode::kNotify;
  // A transfer signed with a view's key (match-keys) is of that view's zones: the key is the
  // view's credential, so the zone's transfer-key does not apply; allow-transfer still does
  // (docs/steering.md, "Views").
  // Verified here only when there are views: otherwise check_key verifies as it always did.
  auto zones = zones_();
  if (!notify_request && !keys_.empty() && zones->views() != nullptr) {
    auto checked = tsig::verify_request(query, keys_, now);
    if (checked && checked->valid()) {
      if (const auth::View* view = zones->views()->by_key(checked->key->name); view != nullptr) {
        signed_by = *checked;
        Intercept result = transfer(*message, transport, client, responses, view);
        tsig::ResponseSigner signer(signed_by, now);
        for (auto& response : responses) signer.sign(response);
        return result;
      }
    }
  }
  if (config != nullptr) {
    // A NOTIFY is checked against the key its zone is pulled with, a transfer against the key
    // it is served with (RFC 8945: either kind of request may be signed).
    const std::string& required = notify_request ? config->primary_key : config->transfer_key;
    if (auto refused = check_key(query, *message, client, now, required, signed_by, responses)) return *refused;
  }
  Intercept result = notify_request ? notify(*message, client, responses) : transfer(*message, transport, client, responses);
  tsig::ResponseSigner signer(signed_by, now);
  for (auto& response : responses) signer.sign(response);
  return result;
}

Intercept Responder::signed_soa(std::span<const std::uint8_t> query, Messages& responses) const {
  std::uint64_t now = tsig::unix_now();
  auto context = tsig::verify_request(query, keys_, now);
  auto located = tsig::locate_tsig(query);
  if (!context || !context->signed_request || !located || !*located) return Intercept::kContinue;
  std::vector<std::uint8_t> response;
  if (context->failed()) {
    auto message = dns::parse_message(query);
    if (!message) return Intercept::kContinue;
    response = error_reply(*message, context->response_rcode()).front();
  } else {
    // In the view whose match-keys lists the key, else as an unsigned query would be.
    auto zones = zones_();
    const auth::View* view = zones->views() != nullptr ? zones->views()->by_key(context->key->name) : nullptr;
    auto unsigned_query = tsig::strip_tsig(query, **located);
    if (view != nullptr) {
      auth::answer_query_in(*view->zones, nullptr, unsigned_query, auth::Transport::kTcp, response, false, nullptr);
    } else {
      auth::answer_query(*zones, unsigned_query, auth::Transport::kTcp, response);
    }
  }
  tsig::ResponseSigner(*context, now).sign(response);
  responses.push_back(std::move(response));
  return Intercept::kRespond;
}

Intercept Responder::transfer(const dns::Message& query, net::Transport transport, const sockaddr_storage& client,
                              Messages& responses, const auth::View* view) const {
  const dns::Question& question = query.questions.front();
  auto served = zones_();  // holds the view's set too
  const auth::ZoneSet* zones = view != nullptr ? view->zones.get() : served.get();
  const zone::Zone* zone = zones->find(question.name);
  if (zone == nullptr || !(zone->origin() == question.name)) {
    responses = error_reply(query, dns::Rcode::kNotAuth, dns::ExtendedError::kNotAuthoritative,
                            "not the apex of a zone served here");
    return Intercept::kRespond;
  }
  // A view's own zone: its own allow-transfer when it has one, else the top-level zone's.
  bool own_view_zone = view != nullptr && served->find(question.name) != zone;
  const auto* config = settings(zone->origin());
  if (own_view_zone) {
    auto own = acls_.find(store::view_zone_key(zone->origin(), view->name));
    if (own != acls_.end() && !own->second.allow_transfer.empty()) config = &own->second;
  }
  std::string peer = net::format_address(client);
  if (config == nullptr || !config::acl_allows(config->allow_transfer, client)) {
    logger_.warn("xfr.refused", {{"zone", zone->origin().to_text()}, {"client", peer}, {"reason", "not in allow-transfer"}});
    responses = error_reply(query, dns::Rcode::kRefused, dns::ExtendedError::kProhibited,
                            "transfer refused: client not in allow-transfer");
    return Intercept::kRespond;
  }
  std::shared_ptr<const zone::Zone> pinned;  // keep the zone alive while we read it
  for (const auto& candidate : zones->zones()) {
    if (candidate.get() == zone) pinned = candidate;
  }
  bool ixfr = question.type == dns::RRType::IXFR;
  // A view's own zone has its history in the view's store (docs/steering.md, "Writes to a
  // view's zones"); without one (no journal) it goes whole.
  store::Store* history = own_view_zone ? (view_stores_ ? view_stores_(view->name) : nullptr) : store_;
  if (ixfr && own_view_zone && history == nullptr) {
    if (transport == net::Transport::kUdp) {  // RFC 1995 §2: the current SOA alone says "use TCP"
      responses = pack_messages(query, std::vector<dns::ResourceRecord>{axfr_records(*zone).front()});
      return Intercept::kRespond;
    }
  } else if (ixfr) {
    // RFC 1995 §3: the client's SOA is in the authority section.
    if (query.authorities.size() != 1 || query.authorities.front().type != dns::RRType::SOA) {
      responses = error_reply(query, dns::Rcode::kFormErr);
      return Intercept::kRespond;
    }
    auto client_soa = dns::parse_soa(query.authorities.front().rdata);
    if (!client_soa) {
      responses = error_reply(query, dns::Rcode::kFormErr);
      return Intercept::kRespond;
    }
    // A zone signed online goes whole: its journal holds the unsigned changes.
    auto online = auth::online_signer(zone->origin());
    std::optional<std::vector<dns::ResourceRecord>> records;
    if (online == nullptr) records = ixfr_records(*zone, client_soa->serial, history);
    if (transport == net::Transport::kUdp && (!records || records->size() > 1)) {
      // RFC 1995 §2: too much for UDP; the current SOA alone tells the client to use TCP.
      records = std::vector<dns::ResourceRecord>{axfr_records(*zone).front()};
    }
    if (records) {
      responses = pack_messages(query, *records);
      logger_.info("xfr.ixfr", {{"zone", zone->origin().to_text()}, {"view", view != nullptr ? view->name : "-"}, {"client", peer},
                                {"from", std::to_string(client_soa->serial)},
                                {"to", std::to_string(zone->soa_fields().serial)},
                                {"records", std::to_string(records->size())}});
      return Intercept::kRespond;
    }
    logger_.info("xfr.ixfr_fallback", {{"zone", zone->origin().to_text()}, {"client", peer},
                                       {"from", std::to_string(client_soa->serial)},
                                       {"reason", "serial not in the journal; sending the whole zone"}});
  } else if (transport == net::Transport::kUdp) {
    responses = error_reply(query, dns::Rcode::kFormErr);  // RFC 5936 §4.2: AXFR only over TCP
    return Intercept::kRespond;
  }
  // A zone signed online is sent signed (auth/online_signing.h), so a secondary can serve it
  // as a pre-signed zone and validators accept what it serves.
  auto online = zone::is_signed(*zone) ? nullptr : auth::online_signer(zone->origin());
  auto records = online != nullptr ? online->signed_records(*zone, static_cast<std::uint32_t>(std::time(nullptr)))
                                   : axfr_records(*zone);
  responses = pack_messages(query, records);
  logger_.info("xfr.axfr", {{"zone", zone->origin().to_text()}, {"view", view != nullptr ? view->name : "-"}, {"client", peer},
                            {"serial", std::to_string(zone->soa_fields().serial)},
                            {"records", std::to_string(records.size())},
                            {"messages", std::to_string(responses.size())}});
  return Intercept::kRespond;
}

std::optional<Intercept> Responder::check_key(std::span<const std::uint8_t> wire, const dns::Message& query,
                                              const sockaddr_storage& client, std::uint64_t now,
                                              const std::string& required_key, tsig::RequestContext& context,
                                              Messages& responses) const {
  if (required_key.empty()) return std::nullopt;
  bool notify_request = opcode_of(wire) == dns::Opcode::kNotify;
  auto checked = tsig::verify_request(wire, keys_, now);
  dns::Rcode rcode = dns::Rcode::kRefused;
  std::string reason;
  if (!checked) {
    rcode = dns::Rcode::kFormErr;
    reason = "malformed TSIG: " + checked.error().message;
  } else {
    context = *checked;
    auto required = dns::Name::from_text(required_key);
    if (checked->failed()) {
      rcode = checked->response_rcode();
      reason = "TSIG " + tsig::tsig_error_text(static_cast<std::uint16_t>(checked->error));
    } else if (!checked->valid()) {
      reason = notify_request ? "unsigned: the zone's primary-key is required" : "unsigned: the zone's transfer-key is required";
    } else if (!required || !(checked->key->name == *required)) {
      reason = notify_request ? "signed with a key other than the zone's primary-key"
                              : "signed with a key other than the zone's transfer-key";
    } else {
      return std::nullopt;
    }
  }
  logger_.warn(notify_request ? "xfr.notify_refused" : "xfr.refused", {{"zone", query.questions.front().name.to_text()},
                               {"client", net::format_address(client)}, {"reason", reason}});
  responses = rcode == dns::Rcode::kRefused
                  ? error_reply(query, rcode, dns::ExtendedError::kProhibited, (notify_request ? "notify refused: " : "transfer refused: ") + reason)
                  : error_reply(query, rcode);
  tsig::ResponseSigner signer(context, now);
  for (auto& response : responses) signer.sign(response);
  return Intercept::kRespond;
}

Intercept Responder::notify(const dns::Message& query, const sockaddr_storage& client, Messages& responses) const {
  const dns::Question& question = query.questions.front();
  const auto* config = settings(question.name);
  if (config == nullptr || !config->primary) {
    responses = error_reply(query, dns::Rcode::kNotAuth, dns::ExtendedError::kNotAuthoritative,
                            "not a secondary zone served here");
    return Intercept::kRespond;
  }
  // RFC 1996 §3.10: a NOTIFY is acted on only when it comes from a known master.
  if (!same_host(config->primary->storage, client)) {
    logger_.warn("xfr.notify_refused", {{"zone", question.name.to_text()}, {"from", net::format_address(client)},
                                        {"reason", "not from the zone's primary"}});
    responses = error_reply(query, dns::Rcode::kRefused, dns::ExtendedError::kProhibited,
                            "notify refused: not from the zone's primary");
    return Intercept::kRespond;
  }
  logger_.info("xfr.notify_received", {{"zone", question.name.to_text()}, {"from", net::format_address(client)}});
  if (notify_listener_) notify_listener_(question.name);
  responses = pack_messages(query, {});
  return Intercept::kRespond;
}

}  // namespace cutover::replication
