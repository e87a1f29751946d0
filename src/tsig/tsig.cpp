// Request verification, response signing and response verification (RFC 8945 §5).
#include "tsig/tsig.h"

#include <ctime>

#include "base/bytes.h"
#include "base/load.h"
#include "tsig/mac.h"

namespace cutover::tsig {
namespace {

using base::ErrorCode;
using base::make_error;

constexpr std::size_t kMaxUnsignedRun = 99;  // RFC 8945 §5.3.1

bool within_fudge(std::uint64_t now, const TsigRecord& tsig) {
  std::uint64_t skew = now > tsig.time_signed ? now - tsig.time_signed : tsig.time_signed - now;
  return skew <= tsig.fudge;
}

std::vector<std::uint8_t> time_other_data(std::uint64_t now) {
  std::vector<std::uint8_t> other;
  base::ByteWriter out(other);
  out.write_u16(static_cast<std::uint16_t>(now >> 32));
  out.write_u32(static_cast<std::uint32_t>(now));
  return other;
}

}  // namespace

std::uint64_t unix_now() { return static_cast<std::uint64_t>(std::time(nullptr)); }

std::string tsig_error_text(std::uint16_t error) {
  switch (static_cast<TsigError>(error)) {
    case TsigError::kNone: return "NOERROR";
    case TsigError::kBadSig: return "BADSIG";
    case TsigError::kBadKey: return "BADKEY";
    case TsigError::kBadTime: return "BADTIME";
    case TsigError::kBadTrunc: return "BADTRUNC";
  }
  return std::to_string(error);
}

base::Result<RequestContext> verify_request(std::span<const std::uint8_t> request, const KeyRing& keys,
                                            std::uint64_t now) {
  auto located = locate_tsig(request);
  if (!located) return located.error();
  RequestContext context;
  if (!*located) return context;
  const LocatedTsig& tsig = **located;
  context.signed_request = true;
  context.request = tsig.record;
  const Key* key = keys.find(tsig.record.key_name);
  auto algorithm = algorithm_from_name(tsig.record.algorithm);
  if (key == nullptr || !algorithm || *algorithm != key->algorithm) {
    context.error = TsigError::kBadKey;
    return context;
  }
  std::size_t full = mac_size(key->algorithm);
  if (tsig.record.mac.size() > full) return make_error(ErrorCode::kMalformed, "TSIG MAC longer than the algorithm's");
  if (tsig.record.mac.size() < full) {
    context.error = TsigError::kBadTrunc;  // our policy: only full-length MACs
    return context;
  }
  std::vector<std::uint8_t> stripped = strip_tsig(request, tsig);
  std::vector<std::uint8_t> expected = compute_mac(*key, {}, stripped, tsig.record, Covered::kVariables);
  if (!macs_equal(expected, tsig.record.mac)) {
    context.error = TsigError::kBadSig;
    return context;
  }
  context.key = *key;
  if (!within_fudge(now, tsig.record)) context.error = TsigError::kBadTime;
  return context;
}

ResponseSigner::ResponseSigner(const RequestContext& context, std::uint64_t now) : context_(context), now_(now) {}

void ResponseSigner::sign(std::vector<std::uint8_t>& message) {
  if (!context_.signed_request) return;
  TsigRecord tsig;
  tsig.key_name = context_.request.key_name;
  tsig.algorithm = context_.request.algorithm;
  tsig.time_signed = now_;
  tsig.fudge = kDefaultFudge;
  tsig.original_id = base::load_u16(message.data());
  tsig.error = static_cast<std::uint16_t>(context_.error);
  if (!context_.key) {  // BADKEY, BADSIG, BADTRUNC: nothing to sign with that the client trusts
    append_tsig(message, tsig);
    return;
  }
  if (context_.error == TsigError::kBadTime) {
    // The client checks the response against its own request time; ours goes in Other Data.
    tsig.time_signed = context_.request.time_signed;
    tsig.other = time_other_data(now_);
  }
  std::span<const std::uint8_t> prior = first_ ? std::span<const std::uint8_t>(context_.request.mac) : prior_mac_;
  tsig.mac = compute_mac(*context_.key, prior, message, tsig, first_ ? Covered::kVariables : Covered::kTimers);
  prior_mac_ = tsig.mac;
  first_ = false;
  append_tsig(message, tsig);
}

std::vector<std::uint8_t> sign_request(std::vector<std::uint8_t>& request, const Key& key, std::uint64_t now) {
  TsigRecord tsig;
  tsig.key_name = key.name;
  tsig.algorithm = algorithm_name(key.algorithm);
  tsig.time_signed = now;
  tsig.original_id = base::load_u16(request.data());
  tsig.mac = compute_mac(key, {}, request, tsig, Covered::kVariables);
  append_tsig(request, tsig);
  return tsig.mac;
}

ResponseVerifier::ResponseVerifier(Key key, std::vector<std::uint8_t> request_mac)
    : key_(std::move(key)), prior_mac_(std::move(request_mac)) {}

base::Status ResponseVerifier::verify(std::span<const std::uint8_t> message, std::uint64_t now) {
  auto located = locate_tsig(message);
  if (!located) return located.error();
  if (!*located) {
    if (!verified_any_) return make_error(ErrorCode::kInvalidArgument, "the first response message is not signed");
    if (++unsigned_run_ > kMaxUnsignedRun) {
      return make_error(ErrorCode::kInvalidArgument, "more than 99 unsigned messages in a row");
    }
    pending_.insert(pending_.end(), message.begin(), message.end());
    return {};
  }
  const TsigRecord& tsig = (*located)->record;
  if (!(tsig.key_name == key_.name) || algorithm_from_name(tsig.algorithm) != key_.algorithm) {
    return make_error(ErrorCode::kInvalidArgument, "response signed with another key");
  }
  if (tsig.error != 0) {
    return make_error(ErrorCode::kInvalidArgument,
                      "server reports TSIG error " + tsig_error_text(tsig.error));
  }
  std::vector<std::uint8_t> covered = pending_;
  std::vector<std::uint8_t> stripped = strip_tsig(message, **located);
  covered.insert(covered.end(), stripped.begin(), stripped.end());
  auto expected = compute_mac(key_, prior_mac_, covered, tsig, verified_any_ ? Covered::kTimers : Covered::kVariables);
  if (!macs_equal(expected, tsig.mac)) return make_error(ErrorCode::kInvalidArgument, "BADSIG: response MAC does not verify");
  if (!within_fudge(now, tsig)) return make_error(ErrorCode::kInvalidArgument, "BADTIME: response time outside the fudge");
  prior_mac_ = tsig.mac;
  pending_.clear();
  unsigned_run_ = 0;
  verified_any_ = true;
  return {};
}

}  // namespace cutover::tsig
