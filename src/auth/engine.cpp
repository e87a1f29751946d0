// answer_query: the query pipeline. The fast path answers the common shapes in one pass;
// otherwise each stage either finishes the response (an error rcode) or hands on:
// read header -> parse -> validate -> EDNS -> find zone -> plan -> encode.
#include "auth/engine.h"

#include <algorithm>
#include <array>
#include <ctime>
#include <string_view>

#include "auth/dnssec.h"
#include "auth/encode.h"
#include "auth/dynamic_answers.h"
#include "auth/lookup.h"
#include "auth/online_signing.h"
#include "dns/message.h"

namespace cutover::auth {
namespace {

using dns::Rcode;

dns::Header response_header(const dns::Header& query) {
  dns::Header header;
  header.id = query.id;
  header.qr = true;
  header.opcode = query.opcode;
  header.rd = query.rd;
  header.cd = query.cd;
  return header;
}

void set_rcode(ResponseFrame& frame, Rcode rcode) {
  auto value = static_cast<std::uint16_t>(rcode);
  frame.header.rcode = static_cast<std::uint8_t>(value & 0x0F);
  if (frame.edns) frame.edns->extended_rcode = static_cast<std::uint8_t>(value >> 4);
}

std::size_t response_size_limit(const std::optional<dns::Edns>& query_edns, Transport transport) {
  if (transport == Transport::kTcp) return 65535;
  if (!query_edns) return dns::kClassicUdpSize;
  std::size_t requested = std::max<std::size_t>(query_edns->udp_size, dns::kClassicUdpSize);
  return std::min<std::size_t>(requested, kMaxUdpPayload);
}

// Meta qtypes other than ANY (OPT, TSIG, MAILA ...) are not questions about data. TYPE0 is
// reserved (RFC 6895 §3.1), not meta: asked, it is an ordinary type with no data, as in BIND.
bool is_unanswerable_qtype(dns::RRType type) {
  return dns::is_meta_type(type) && type != dns::RRType::ANY && static_cast<std::uint16_t>(type) != 0;
}

// DS at a zone's apex belongs to the parent side of the cut (RFC 4035 §3.1.4.1): when the
// served zone above delegates exactly this apex, it answers (its DS RRset, or its NODATA with
// its own SOA), as NSD does. Otherwise (parent not served, not delegating here, or a cut of its
// own above this apex, which a third party serves) the zone itself answers, as it is all we have.
const zone::Zone& zone_for_ds(const ZoneSet& zones, const zone::Zone& zone, const dns::Name& qname) {
  const dns::Name& origin = zone.origin();
  if (origin.is_root() || qname.label_count() != origin.label_count()) return zone;
  const zone::Zone* parent = zones.find(origin.parent());
  if (parent == nullptr) return zone;
  const zone::Node* cut = parent->find_delegation(qname);
  return cut != nullptr && cut == parent->find(qname) ? *parent : zone;
}

QueryOutcome finish(QueryOutcome outcome, const AnswerPlan& plan, ResponseFrame frame,
                    std::vector<std::uint8_t>& response) {
  set_rcode(frame, plan.rcode);
  frame.header.aa = plan.authoritative;
  response = encode_answer(plan, std::move(frame));
  outcome.respond = true;
  outcome.rcode = plan.rcode;
  outcome.dynamic = plan.dynamic;
  return outcome;
}

QueryOutcome reply_error(QueryOutcome outcome, Rcode rcode, ResponseFrame frame, std::vector<std::uint8_t>& response) {
  AnswerPlan plan;
  plan.rcode = rcode;
  return finish(std::move(outcome), plan, std::move(frame), response);
}

// The same with an Extended DNS Error, sent when the query had an OPT (RFC 8914 §3).
QueryOutcome reply_error(QueryOutcome outcome, Rcode rcode, dns::ExtendedError code, std::string_view text,
                         ResponseFrame frame, std::vector<std::uint8_t>& response) {
  if (frame.edns) dns::add_extended_error(*frame.edns, code, text);
  return reply_error(std::move(outcome), rcode, std::move(frame), response);
}

// RFC 7873 §5.2 for the COOKIE options of `query`: nothing to do (none, or cookies off),
// FORMERR (malformed, or more than one), or a reply option added to the response's OPT;
// `badcookie` when cookies are required over UDP and the query has no valid server cookie.
enum class CookieStep { kNone, kMalformed, kAnswered, kBadCookie };

CookieStep answer_cookies(const dns::Edns& query, const ClientContext* client, Transport transport,
                          dns::Edns& reply) {
  if (active_cookies(client) == nullptr) return CookieStep::kNone;
  const dns::EdnsOption* cookie = nullptr;
  for (const auto& option : query.options) {
    if (option.code != dns::kCookieOption) continue;
    if (cookie != nullptr) return CookieStep::kMalformed;
    cookie = &option;
  }
  if (cookie == nullptr) return CookieStep::kNone;
  std::array<std::uint8_t, dns::kCookieReplySize> data;
  dns::CookieVerdict verdict = cookie_cache().answer(*client->cookies, cookie->data, client->address, client->now, data);
  if (verdict == dns::CookieVerdict::kMalformed) return CookieStep::kMalformed;
  reply.options.push_back({dns::kCookieOption, {data.begin(), data.end()}});
  bool required = client->cookies->require && transport == Transport::kUdp;
  return verdict == dns::CookieVerdict::kNew && required ? CookieStep::kBadCookie : CookieStep::kAnswered;
}

// RFC 7871 §7.2.1 for the ECS options of a trusted client's query: none, one well-formed
// (returned), or FORMERR (malformed, or more than one).
enum class SubnetStep { kNone, kMalformed, kFound };

SubnetStep read_client_subnet(const dns::Edns& query, std::optional<dns::ClientSubnet>& subnet, std::string& error) {
  SubnetStep step = SubnetStep::kNone;
  for (const auto& option : query.options) {
    if (option.code != dns::kClientSubnetOption) continue;
    if (step == SubnetStep::kFound) {
      error = "more than one client subnet option";
      return SubnetStep::kMalformed;
    }
    auto parsed = dns::parse_client_subnet(option.data);
    if (!parsed) {
      error = parsed.error().message;
      return SubnetStep::kMalformed;
    }
    subnet = *parsed;
    step = SubnetStep::kFound;
  }
  return step;
}

}  // namespace

dns::CookieCache& cookie_cache() {
  // On the heap, made by the first cookie this thread answers: as a thread_local object its
  // 16 KiB were static TLS that every thread of the process paid for, cookies or not
  // (docs/performance.md, "Zone memory").
  thread_local std::unique_ptr<dns::CookieCache> cache;
  if (cache == nullptr) [[unlikely]] cache = std::make_unique<dns::CookieCache>();
  return *cache;
}

QueryOutcome answer_query(const ZoneSet& zones, std::span<const std::uint8_t> query, Transport transport,
                          std::vector<std::uint8_t>& response, bool describe, const ClientContext* client) {
  return answer_query(zones, nullptr, query, transport, response, describe, client);
}

QueryOutcome answer_query_general(const ZoneSet& zones, std::span<const std::uint8_t> query, Transport transport,
                                  std::vector<std::uint8_t>& response, const DynamicAnswers* dynamic,
                                  const ClientContext* client) {
  QueryOutcome outcome;
  auto header = dns::parse_header(query);
  if (!header || header->qr) return outcome;  // unreadable, or a response: never answer those

  ResponseFrame frame;
  frame.header = response_header(*header);
  auto message = dns::parse_message(query);
  if (!message) return reply_error(std::move(outcome), Rcode::kFormErr, std::move(frame), response);
  if (message->questions.size() == 1) {
    frame.question = message->questions.front();
    outcome.qname = frame.question->name;
    outcome.qtype = frame.question->type;
  }
  if (message->edns) {
    dns::Edns edns;
    edns.udp_size = kMaxUdpPayload;
    edns.dnssec_ok = message->edns->dnssec_ok;  // RFC 3225 §3: copied into every response, BADVERS too
    frame.edns = edns;
  }
  frame.max_size = response_size_limit(message->edns, transport);

  if (message->edns && message->edns->version == 0) {
    switch (answer_cookies(*message->edns, client, transport, *frame.edns)) {
      case CookieStep::kMalformed:
        return reply_error(std::move(outcome), Rcode::kFormErr, dns::ExtendedError::kOther,
                           "malformed COOKIE option", std::move(frame), response);
      case CookieStep::kBadCookie:  // RFC 7873 §5.2.3: the client retries with the cookie sent
        return reply_error(std::move(outcome), Rcode::kBadCookie, std::move(frame), response);
      case CookieStep::kNone:
      case CookieStep::kAnswered:
        break;
    }
  }
  // The network steering sees: a trusted resolver's client subnet, else the source address.
  std::optional<dns::ClientSubnet> subnet;
  ClientNetwork network;
  if (client != nullptr) network.address = client->address;
  if (message->edns && message->edns->version == 0 && trusts_client_subnet(client)) {
    std::string error;
    if (read_client_subnet(*message->edns, subnet, error) == SubnetStep::kMalformed) {
      return reply_error(std::move(outcome), Rcode::kFormErr, dns::ExtendedError::kOther, error, std::move(frame), response);
    }
    // A /0 asks for no tailoring (RFC 7871 §7.1.2): steered by the resolver, answered with scope 0.
    if (subnet && subnet->source > 0) network = ClientNetwork{subnet->bytes(), subnet->source};
  }
  using dns::ExtendedError;
  if (header->opcode != dns::Opcode::kQuery) {
    return reply_error(std::move(outcome), Rcode::kNotImp, ExtendedError::kNotSupported,
                       "opcode " + dns::opcode_to_text(header->opcode) + " is not served", std::move(frame), response);
  }
  if (message->edns && message->edns->version > 0) {  // RFC 6891 §6.1.3
    return reply_error(std::move(outcome), Rcode::kBadVers, std::move(frame), response);
  }
  if (message->questions.size() != 1) {
    frame.question.reset();
    return reply_error(std::move(outcome), Rcode::kFormErr, ExtendedError::kOther, "a query holds exactly one question",
                       std::move(frame), response);
  }
  const dns::Question& question = *frame.question;
  if (question.type == dns::RRType::AXFR || question.type == dns::RRType::IXFR) {
    return reply_error(std::move(outcome), Rcode::kRefused, ExtendedError::kProhibited,
                       "zone transfers are not configured here", std::move(frame), response);
  }
  // RFC 1035 §3.2.3 mailbox meta types, answered NOTIMP as BIND does.
  if (question.type == dns::RRType::MAILA || question.type == dns::RRType::MAILB) {
    return reply_error(std::move(outcome), Rcode::kNotImp, ExtendedError::kNotSupported, "MAILA and MAILB are not served",
                       std::move(frame), response);
  }
  if (is_unanswerable_qtype(question.type)) {
    return reply_error(std::move(outcome), Rcode::kFormErr, ExtendedError::kOther,
                       dns::type_to_text(question.type) + " is not a question type", std::move(frame), response);
  }
  if (question.klass != dns::RRClass::IN && question.klass != dns::RRClass::ANY) {
    return reply_error(std::move(outcome), Rcode::kRefused, ExtendedError::kNotAuthoritative, "only class IN is served",
                       std::move(frame), response);
  }
  const zone::Zone* zone = zones.find(question.name);
  if (zone == nullptr) {
    return reply_error(std::move(outcome), Rcode::kRefused, ExtendedError::kNotAuthoritative,
                       "not in a zone served here", std::move(frame), response);
  }
  if (question.type == dns::RRType::DS) zone = &zone_for_ds(zones, *zone, question.name);

  bool minimal_any = transport == Transport::kUdp;
  AnswerPlan plan = plan_answer(*zone, question.name, question.type, minimal_any, dynamic, &network,
                                client != nullptr ? client->view_bit : kDefaultViewBit);
  if (frame.edns && frame.edns->dnssec_ok) {  // RFC 4035 §3.1: DNSSEC records only when asked for
    auto served = zones.served_of(zone);
    if (served != nullptr && served->dnssec != nullptr) {
      if (const auto& online = served->dnssec->online()) {
        online->sign(*zone, plan, static_cast<std::uint32_t>(std::time(nullptr)));
      } else {
        add_dnssec_records(*zone, *served->dnssec, plan);
      }
    }
  }
  if (subnet) {
    std::uint8_t scope = std::max(plan.subnet_scope.value_or(0), client->subnet_scope_floor);
    dns::add_client_subnet(*frame.edns, *subnet, subnet->source == 0 ? 0 : scope);
  }
  return finish(std::move(outcome), plan, std::move(frame), response);
}

}  // namespace cutover::auth
