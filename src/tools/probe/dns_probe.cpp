// Probe reduction and server list parsing.
#include "tools/probe/dns_probe.h"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "dns/rdata.h"
#include "dns/types.h"

namespace cutover::tools {

ServerReply probe(const net::SocketAddress& server, const dns::Name& name, dns::RRType type,
                  const client::QueryOptions& options) {
  ServerReply result;
  result.server = net::format_address(server.storage);
  auto reply = client::query(server, name, type, options);
  if (!reply) {
    result.timed_out = reply.error().code == base::ErrorCode::kTimeout;
    result.error = reply.error().message;
    return result;
  }
  result.answered = true;
  result.response = std::move(reply->response);
  result.round_trip = reply->round_trip;
  result.truncated_retried = reply->over_tcp && !options.tcp;
  const auto& header = result.response.header;
  std::uint16_t extended = result.response.edns ? result.response.edns->extended_rcode : 0;
  result.rcode = static_cast<dns::Rcode>((extended << 4) | header.rcode);
  result.authoritative = header.aa;
  for (const auto& record : result.response.answers) {
    result.answers.push_back(fmt::format("{} {} {}", record.owner.lowercased().to_text(),
                                         dns::type_to_text(record.type), dns::rdata_to_text(record.type, record.rdata)));
    result.min_ttl = std::min(result.min_ttl.value_or(record.ttl), record.ttl);
  }
  std::sort(result.answers.begin(), result.answers.end());
  return result;
}

std::string answer_signature(const ServerReply& result) {
  if (!result.answered) return "no reply";
  std::string out = dns::rcode_to_text(result.rcode);
  for (std::size_t i = 0; i < result.answers.size(); ++i) out += (i == 0 ? " " : ", ") + result.answers[i];
  return out;
}

std::optional<std::uint32_t> soa_serial(const dns::Message& message) {
  for (const auto* section : {&message.answers, &message.authorities}) {
    for (const auto& record : *section) {
      if (record.type != dns::RRType::SOA) continue;
      auto soa = dns::parse_soa(record.rdata);
      if (soa) return soa->serial;
    }
  }
  return std::nullopt;
}

base::Result<dns::Question> parse_question(const std::string& name, const std::string& type) {
  auto parsed_name = dns::Name::from_text(name.ends_with('.') ? name : name + ".");
  if (!parsed_name) {
    return base::make_error(base::ErrorCode::kMalformed, fmt::format("bad name '{}': {}", name, parsed_name.error().message));
  }
  auto parsed_type = dns::type_from_text(type);
  if (!parsed_type) return base::make_error(base::ErrorCode::kMalformed, fmt::format("unknown type '{}'", type));
  return dns::Question{*parsed_name, *parsed_type};
}

base::Result<std::vector<net::SocketAddress>> parse_server_list(const std::string& text, std::uint16_t default_port) {
  std::vector<net::SocketAddress> servers;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    if (item.empty()) continue;
    auto server = client::parse_server(item, default_port);
    if (!server) return server.error();
    servers.push_back(*server);
  }
  return servers;
}

std::vector<net::SocketAddress> resolv_conf_servers(const std::string& text) {
  std::vector<net::SocketAddress> servers;
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::stringstream words(line);
    std::string keyword, address;
    if (!(words >> keyword >> address) || keyword != "nameserver") continue;
    if (auto server = client::parse_server(address, 53)) servers.push_back(*server);
  }
  return servers;
}

}  // namespace cutover::tools
