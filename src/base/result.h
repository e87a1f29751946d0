// Result<T>: a value or an Error, returned by every hot-path function instead of throwing.
// Plain value type; thread-compatible (no internal synchronisation).
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <variant>

namespace cutover::base {

enum class ErrorCode {
  kMalformed,        // input bytes or text do not follow the format
  kInvalidArgument,  // well-formed but not acceptable (out of range, wrong kind)
  kNotFound,
  kLimit,            // a size or count limit was hit
  kUnsupported,
  kIo,
  kTimeout,         // no answer within the allowed time
};

struct Error {
  static constexpr std::size_t kNoWhere = static_cast<std::size_t>(-1);

  ErrorCode code = ErrorCode::kMalformed;
  std::string message;
  // Where the problem is: a byte offset for wire input, a token index for text input.
  std::size_t where = kNoWhere;
};

inline Error make_error(ErrorCode code, std::string message, std::size_t where = Error::kNoWhere) {
  return Error{code, std::move(message), where};
}

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}          // NOLINT: implicit by design
  Result(Error error) : state_(std::move(error)) {}      // NOLINT: implicit by design

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const { return std::get<1>(state_); }

 private:
  std::variant<T, Error> state_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT: implicit by design

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { return error_; }

 private:
  Error error_;
  bool ok_ = true;
};

using Status = Result<void>;

}  // namespace cutover::base
