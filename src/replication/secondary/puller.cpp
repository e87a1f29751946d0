// SOA queries and transfer requests to the primary, over the stub client.
#include "replication/secondary/puller.h"

#include <fmt/format.h>

#include "base/random.h"
#include "client/query.h"
#include "dns/rdata.h"
#include "tsig/tsig.h"

namespace cutover::replication {
namespace {

using base::ErrorCode;
using base::make_error;

// The SOA question over UDP (TCP on truncation), or, with a key, signed over TCP: a signed
// reply must verify before its serial may start a transfer (RFC 8945 §5.3.1).
base::Result<client::QueryResult> ask_soa(const net::SocketAddress& primary, const dns::Name& origin,
                                          const PullOptions& options) {
  client::QueryOptions query_options;
  query_options.timeout = options.timeout;
  query_options.tries = 2;
  if (!options.key) return client::query(primary, origin, dns::RRType::SOA, query_options);
  dns::Message request;
  request.header.id = base::random_message_id();
  request.questions.push_back({origin, dns::RRType::SOA, dns::RRClass::IN});
  std::vector<std::uint8_t> wire = dns::encode_message(request);
  tsig::ResponseVerifier verifier(*options.key, tsig::sign_request(wire, *options.key, tsig::unix_now()));
  query_options.tcp = true;
  std::optional<client::QueryResult> answer;
  auto exchanged = client::exchange_stream(primary, request, wire, query_options,
                                           [&](client::QueryResult reply) -> base::Result<bool> {
    if (auto verified = verifier.verify(reply.wire, tsig::unix_now()); !verified) {
      return make_error(verified.error().code, "SOA reply: " + verified.error().message);
    }
    answer = std::move(reply);
    return true;
  });
  if (!exchanged) return exchanged.error();
  if (!answer || !verifier.complete()) return make_error(ErrorCode::kInvalidArgument, "SOA reply: not TSIG-signed");
  return std::move(*answer);
}

}  // namespace

base::Result<dns::SoaFields> query_primary_soa(const net::SocketAddress& primary, const dns::Name& origin,
                                               const PullOptions& options) {
  auto reply = ask_soa(primary, origin, options);
  if (!reply) return reply.error();
  const dns::Message& response = reply->response;
  auto rcode = static_cast<dns::Rcode>(response.header.rcode);
  if (rcode != dns::Rcode::kNoError || !response.header.aa) {
    return make_error(ErrorCode::kUnsupported, fmt::format("SOA query: the primary answered {}{}", dns::rcode_to_text(rcode),
                                                           response.header.aa ? "" : " without authority"));
  }
  for (const auto& record : response.answers) {
    if (record.type == dns::RRType::SOA && record.owner == origin) return dns::parse_soa(record.rdata);
  }
  return make_error(ErrorCode::kMalformed, "SOA query: no SOA for " + origin.to_text() + " in the answer");
}

base::Result<Transfer> request_transfer(const net::SocketAddress& primary, const dns::Name& origin,
                                        const std::optional<dns::ResourceRecord>& current_soa,
                                        const PullOptions& options) {
  dns::RRType type = current_soa ? dns::RRType::IXFR : dns::RRType::AXFR;
  dns::Message request;
  request.header.id = base::random_message_id();
  request.questions.push_back({origin, type, dns::RRClass::IN});
  if (current_soa) request.authorities.push_back(*current_soa);
  client::QueryOptions query_options;
  query_options.timeout = options.timeout;
  query_options.tcp = true;
  TransferReader reader(origin, type, options.max_bytes);
  std::vector<std::uint8_t> wire = dns::encode_message(request);
  std::optional<tsig::ResponseVerifier> verifier;
  if (options.key) verifier.emplace(*options.key, tsig::sign_request(wire, *options.key, tsig::unix_now()));
  auto streamed = client::exchange_stream(primary, request, wire, query_options,
                                          [&reader, &verifier](client::QueryResult reply) -> base::Result<bool> {
    if (verifier) {
      if (auto verified = verifier->verify(reply.wire, tsig::unix_now()); !verified) {
        return make_error(verified.error().code, "transfer reply: " + verified.error().message);
      }
    }
    return reader.add(reply.response, reply.wire.size() + 2);  // + the TCP length prefix
  });
  if (!streamed) return streamed.error();
  if (verifier && !verifier->complete()) {
    return make_error(ErrorCode::kInvalidArgument, "transfer reply: the last message is not TSIG-signed");
  }
  return reader.take();
}

}  // namespace cutover::replication
