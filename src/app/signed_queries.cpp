// Signed queries: verify, choose the view, answer, sign.
#include "app/signed_queries.h"

#include "app/replication.h"

#include "auth/views.h"
#include "dns/message.h"
#include "net/address.h"
#include "tsig/record.h"
#include "tsig/tsig.h"

namespace cutover::app {
namespace {

// A QUERY whose last additional record may be a TSIG: worth verifying. Everything else is
// left to the other handlers and the engine.
bool maybe_signed_query(std::span<const std::uint8_t> query) {
  auto header = dns::parse_header(query);
  return header && !header->qr && header->opcode == dns::Opcode::kQuery && header->arcount > 0;
}

// The header and question of `query` with `rcode`: the NOTAUTH of a failed TSIG check.
std::vector<std::uint8_t> refusal(std::span<const std::uint8_t> query, dns::Rcode rcode) {
  auto parsed = dns::parse_message(query);
  dns::Message reply;
  if (parsed) {
    reply.header = parsed->header;
    reply.questions = parsed->questions;
  }
  reply.header.qr = true;
  reply.header.aa = false;
  reply.header.tc = false;
  reply.header.ra = false;
  reply.header.ad = false;
  reply.header.rcode = static_cast<std::uint8_t>(rcode);
  return dns::encode_message(reply);
}

}  // namespace

void install_signed_queries(server::Server& server, const config::Config& config) {
  if (config.writes.keys.empty()) return;
  server.add_request_handler([&server, keys = key_ring(config)](std::span<const std::uint8_t> query,
                                                               net::Transport transport, const sockaddr_storage& client,
                                                               std::vector<std::vector<std::uint8_t>>& responses) {
    if (!maybe_signed_query(query)) return server::Intercept::kContinue;
    // A walk over the records, cheaper than the full verification every EDNS query would
    // otherwise pay: only a query that carries a TSIG goes on.
    auto located = tsig::locate_tsig(query);
    if (!located || !*located) return server::Intercept::kContinue;
    std::uint64_t now = tsig::unix_now();
    auto context = tsig::verify_request(query, keys, now);
    // Unsigned, or a TSIG that does not parse (the engine answers FORMERR then).
    if (!context || !context->signed_request) return server::Intercept::kContinue;
    std::vector<std::uint8_t> response;
    if (context->failed()) {
      response = refusal(query, context->response_rcode());
    } else {
      auto zones = server.zones();
      auto dynamic = server.dynamic();
      auth::ClientContext client_context = server.client_context(client);
      const auth::View* view = zones->views() != nullptr ? zones->views()->by_key(context->key->name) : nullptr;
      auth::QueryOutcome outcome =
          view != nullptr
              ? auth::answer_query_in(*view->zones, dynamic.get(), query, transport, response, false, &client_context)
              : auth::answer_query(*zones, dynamic.get(), query, transport, response, false, &client_context);
      if (!outcome.respond) return server::Intercept::kDrop;
    }
    tsig::ResponseSigner(*context, now).sign(response);
    responses.push_back(std::move(response));
    return server::Intercept::kRespond;
  });
}

}  // namespace cutover::app
