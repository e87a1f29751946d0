// libFuzzer target: TSIG (RFC 8945) on arbitrary requests: locating and decoding the TSIG RR
// (§4.2, §5.1), the server's verification against a key ring (§5.2; the clock is the
// record's own Time Signed so the MAC check runs), and, for a request that verifies, a signed
// response that the client side must accept (§5.3). Checks: locate_tsig and verify_request
// agree on what is malformed; strip_tsig gives the bytes before the TSIG with the original ID
// and ARCOUNT one less (§4.3.1); a TSIG re-appended to the message decodes to the same fields.
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "dns/base_encoding.h"
#include "fuzz_check.h"
#include "tsig/record.h"
#include "tsig/tsig.h"

namespace {

using cutover::fuzz::check;
namespace dns = cutover::dns;
namespace tsig = cutover::tsig;

// The keys the seed corpus was signed with (fuzz/corpus/tsig_record/README.md).
const tsig::KeyRing& keys() {
  static const tsig::KeyRing ring = [] {
    std::vector<tsig::Key> list(2);
    list[0].name = *dns::Name::from_text("fuzz-key.");
    list[0].algorithm = tsig::Algorithm::kHmacSha256;
    dns::base64_decode("Zm9yLWZ1enppbmctdGhlLXRzaWctcGFyc2VyLTAwMDE=", list[0].secret);
    list[1].name = *dns::Name::from_text("fuzz-key-512.");
    list[1].algorithm = tsig::Algorithm::kHmacSha512;
    dns::base64_decode("Zm9yLWZ1enppbmctdGhlLXRzaWctcGFyc2VyLTUxMi0wMDAy", list[1].secret);
    return tsig::KeyRing(std::move(list));
  }();
  return ring;
}

bool same(const tsig::TsigRecord& a, const tsig::TsigRecord& b) {
  return a.key_name == b.key_name && a.algorithm == b.algorithm && a.time_signed == b.time_signed &&
         a.fudge == b.fudge && a.mac == b.mac && a.original_id == b.original_id && a.error == b.error &&
         a.other == b.other;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::span<const std::uint8_t> wire(data, size);
  auto located = tsig::locate_tsig(wire);
  std::uint64_t now = located && *located ? (*located)->record.time_signed : 1'700'000'000;
  auto context = tsig::verify_request(wire, keys(), now);
  check(context.ok() == located.ok(), "verify_request and locate_tsig disagree on a malformed TSIG");
  if (!located || !*located) return 0;
  const tsig::LocatedTsig& found = **located;
  check(found.offset < size, "TSIG offset outside the message");

  // §4.3.1: the message before the TSIG, ARCOUNT one less, the original ID back in place.
  std::vector<std::uint8_t> stripped = tsig::strip_tsig(wire, found);
  check(stripped.size() == found.offset, "the stripped message is not the bytes before the TSIG");
  check(stripped[0] == (found.record.original_id >> 8) && stripped[1] == (found.record.original_id & 0xFF),
        "the stripped message does not carry the original ID");
  std::uint16_t arcount = static_cast<std::uint16_t>((data[10] << 8) | data[11]);
  check(((stripped[10] << 8) | stripped[11]) == arcount - 1, "the stripped message's ARCOUNT");
  check(std::equal(stripped.begin() + 2, stripped.begin() + 10, data + 2) &&
            std::equal(stripped.begin() + 12, stripped.end(), data + 12),
        "the stripped message differs in other bytes");

  // The TSIG re-appended to the same bytes (the ID as received: a name may point into the
  // header, RFC 1035 §4.1.4 does not forbid it) decodes to the same fields.
  std::vector<std::uint8_t> unsigned_copy(data, data + found.offset);
  unsigned_copy[10] = static_cast<std::uint8_t>((arcount - 1) >> 8);
  unsigned_copy[11] = static_cast<std::uint8_t>((arcount - 1) & 0xFF);
  std::vector<std::uint8_t> resigned = unsigned_copy;
  tsig::append_tsig(resigned, found.record);
  auto again = tsig::locate_tsig(resigned);
  check(again.ok() && again->has_value(), "a TSIG appended to the message without it is not found");
  check(same((*again)->record, found.record), "a re-appended TSIG decodes to other fields");

  if (context->valid()) {
    std::vector<std::uint8_t> response = unsigned_copy;
    tsig::ResponseSigner signer(*context, now);
    signer.sign(response);
    tsig::ResponseVerifier verifier(*context->key, context->request.mac);
    check(verifier.verify(response, now).ok(), "the client rejects the server's signed response");
    check(verifier.complete(), "a signed response does not complete the exchange");
  }
  return 0;
}
