// TSIG (RFC 8945) for requests and responses, server and client side. Thread-safe free
// functions; ResponseSigner and ResponseVerifier hold one exchange's chain and are not.
//
// Server (UPDATE, AXFR/IXFR):
//   auto context = tsig::verify_request(wire, keys, now);   // error: FORMERR
//   if (context->failed()) { reply with context->response_rcode() (NOTAUTH) ... }
//   tsig::ResponseSigner signer(*context, now);
//   signer.sign(response);                                  // each message, in order
// Client (pulling a zone, sending UPDATE):
//   auto request_mac = tsig::sign_request(request, key, now);
//   tsig::ResponseVerifier verifier(key, request_mac);
//   for each response message: verifier.verify(message, now);   // fails on a bad signature
//   verifier.complete()                                      // the last one was signed
// Times are seconds since the epoch, passed in so tests control them.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/result.h"
#include "dns/types.h"
#include "tsig/key.h"
#include "tsig/record.h"

namespace cutover::tsig {

// The TSIG Error field (RFC 8945 §4.2; BADSIG shares 16 with BADVERS in the rcode registry).
enum class TsigError : std::uint16_t { kNone = 0, kBadSig = 16, kBadKey = 17, kBadTime = 18, kBadTrunc = 22 };
std::string tsig_error_text(std::uint16_t error);

// What the server learnt from a request's TSIG, kept to sign the response(s).
struct RequestContext {
  bool signed_request = false;
  std::optional<Key> key;             // the verified key (set when error is BADTIME too)
  TsigError error = TsigError::kNone;
  TsigRecord request;                 // the request's TSIG record

  bool valid() const { return signed_request && error == TsigError::kNone; }
  bool failed() const { return signed_request && error != TsigError::kNone; }
  // RFC 8945 §5.3.2: a failed check is answered NOTAUTH, the TSIG error says why.
  dns::Rcode response_rcode() const { return failed() ? dns::Rcode::kNotAuth : dns::Rcode::kNoError; }
};

// Checks the request's TSIG, in the order of RFC 8945 §5.2: key and algorithm (BADKEY), MAC
// length (truncated: BADTRUNC) and value (BADSIG, compared in constant time), then time
// against the fudge (BADTIME). An unsigned request gives signed_request = false. Fails
// (kMalformed, answer FORMERR) when the TSIG is misplaced or does not parse.
base::Result<RequestContext> verify_request(std::span<const std::uint8_t> request, const KeyRing& keys,
                                            std::uint64_t now);

// Signs the messages of one response in order: the first covers the request MAC and the
// full variables, each later one the previous MAC and the timers (§5.3.1). After BADKEY,
// BADSIG or BADTRUNC the TSIG is appended unsigned (empty MAC, §5.3.2); after BADTIME it is
// signed and carries the server's time in Other Data. Does nothing for an unsigned request.
class ResponseSigner {
 public:
  // `context` must outlive the signer.
  ResponseSigner(const RequestContext& context, std::uint64_t now);
  void sign(std::vector<std::uint8_t>& message);

 private:
  const RequestContext& context_;
  std::uint64_t now_;
  std::vector<std::uint8_t> prior_mac_;
  bool first_ = true;
};

// The wall-clock time TSIG signs and checks against: seconds since the Unix epoch (§4.2).
std::uint64_t unix_now();

// Appends a TSIG signed with `key` (fudge 300, the message's ID as original ID) and returns
// the request MAC, which the response's verification needs.
std::vector<std::uint8_t> sign_request(std::vector<std::uint8_t>& request, const Key& key, std::uint64_t now);

// Verifies the messages of one response in order. Unsigned messages between signed ones are
// allowed (at most 99 in a row, §5.3.1) and are covered by the next signed one.
class ResponseVerifier {
 public:
  ResponseVerifier(Key key, std::vector<std::uint8_t> request_mac);
  // Fails (kInvalidArgument, message naming the TSIG error) for a wrong key, a bad MAC, a
  // time outside the fudge, or too many unsigned messages; kMalformed when it does not parse.
  base::Status verify(std::span<const std::uint8_t> message, std::uint64_t now);
  // True when at least one message verified and the last one given was signed.
  bool complete() const { return verified_any_ && unsigned_run_ == 0; }

 private:
  Key key_;
  std::vector<std::uint8_t> prior_mac_;
  std::vector<std::uint8_t> pending_;  // unsigned messages since the last signed one
  std::size_t unsigned_run_ = 0;
  bool verified_any_ = false;
};

}  // namespace cutover::tsig
