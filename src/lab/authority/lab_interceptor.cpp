// Outage modes and query counting for the lab authority.
#include "lab/authority/lab_interceptor.h"

#include "dns/message.h"
#include "lab/authority/ns_in_authority.h"

namespace cutover::lab {

std::vector<std::uint8_t> error_reply(std::span<const std::uint8_t> query, dns::Rcode rcode) {
  auto request = dns::parse_message(query);
  if (!request) return {};
  dns::Message reply;
  reply.header.id = request->header.id;
  reply.header.qr = true;
  reply.header.opcode = request->header.opcode;
  reply.header.rd = request->header.rd;
  reply.header.rcode = static_cast<std::uint8_t>(static_cast<std::uint16_t>(rcode) & 0xF);
  reply.questions = request->questions;
  return dns::encode_message(reply);
}

server::QueryInterceptor make_lab_interceptor(LabModel& model) {
  return [&model](std::span<const std::uint8_t> query, net::Transport transport, std::vector<std::uint8_t>& response) {
    auto request = dns::parse_message(query);
    if (!request || request->header.qr || request->questions.size() != 1) return server::Intercept::kContinue;
    const dns::Question& question = request->questions.front();
    model.count_query(question.name, question.type);
    switch (model.outage_for(question.name)) {
      case Outage::kNone: {
        auto zones = model.ns_in_authority_zones(question.name);
        if (!zones) return server::Intercept::kContinue;
        bool udp = transport == net::Transport::kUdp;
        auto outcome = auth::answer_query_general(*zones, query, udp ? auth::Transport::kUdp : auth::Transport::kTcp,
                                                  response);
        if (!outcome.respond) return server::Intercept::kDrop;
        add_ns_in_authority(*zones, reply_size_limit(udp, request->edns), response);
        return server::Intercept::kRespond;
      }
      case Outage::kDrop: return server::Intercept::kDrop;
      case Outage::kRefuse: response = error_reply(query, dns::Rcode::kRefused); break;
      case Outage::kServfail: response = error_reply(query, dns::Rcode::kServFail); break;
    }
    return response.empty() ? server::Intercept::kDrop : server::Intercept::kRespond;
  };
}

}  // namespace cutover::lab
