// The field kinds of the rdata table whose presentation format is more than a number, a name
// or a string: LOC (RFC 1876), APL (RFC 3123), HIP (RFC 8005), WKS's port bitmap (RFC 1035
// §3.4.2), NXT's bitmap (RFC 2535), A6 (RFC 2874), ATMA, DOA's data, EUI-48/64 (RFC 7043),
// ILNP locators and node ids (RFC 6742), NSAP (RFC 1706),
// IPSECKEY's and AMTRELAY's gateway (RFC 4025, RFC 8777), and the mnemonics of CERT (RFC 4398)
// and WKS. Each has a wire length check, a parser and a printer, dispatched from
// rdata_fields.cpp. Stateless free functions; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "base/result.h"
#include "dns/rdata.h"
#include "dns/rdata_fields.h"

namespace cutover::dns {

bool is_special_field(FieldKind kind);

// As field_length(), field_from_text() and field_to_text(), for a special kind. `out` holds
// the rdata written so far (the WKS port bitmap reads its protocol, the gateway its type).
std::optional<std::size_t> special_field_length(FieldKind kind, std::span<const std::uint8_t> rdata, std::size_t pos);
base::Status special_field_from_text(FieldKind kind, std::span<const TextToken> tokens, std::size_t& index,
                                     const Name& origin, Rdata& out);
// `before` is the rdata before the field (the gateway's type is in it).
std::string special_field_to_text(FieldKind kind, std::span<const std::uint8_t> field,
                                  std::span<const std::uint8_t> before);

}  // namespace cutover::dns
