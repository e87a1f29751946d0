// The HTTP/1.1 side of the reference client (RFC 9112): URLs it can fetch, the GET request it
// sends, and an incremental response parser (Content-Length, chunked, or until close;
// persistence per RFC 9112 §9.3). Plain HTTP only: TLS is not implemented. Value types; a
// ResponseParser is used by one thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"

namespace cutover::client {

struct Url {
  std::string host;         // a name, an IPv4 address, or an IPv6 address without brackets
  std::uint16_t port = 80;
  std::string target = "/";  // path and query
  bool host_is_address = false;
  // "host:port" (brackets around IPv6): the Host header and the connection pool's key.
  std::string authority() const;
};

// "http://HOST[:PORT][/PATH]"; https:// and other schemes are refused (kUnsupported).
base::Result<Url> parse_url(std::string_view text);

// A GET for `url` with Host and, when `keep_alive` is false, "Connection: close".
std::string build_get(const Url& url, bool keep_alive);

struct Response {
  int status = 0;
  std::string reason;
  int minor_version = 1;  // HTTP/1.minor
  std::vector<std::pair<std::string, std::string>> headers;  // names lowercased
  std::string body;
  // RFC 9112 §9.3: whether the connection may carry another request after this response.
  bool keep_alive = false;

  // The first header named `name` (lowercase), if any.
  std::optional<std::string> header(std::string_view name) const;
};

// Feed it the bytes read from the connection, then end_of_stream() when the peer closed.
class ResponseParser {
 public:
  enum class State { kNeedMore, kComplete, kError };

  static constexpr std::size_t kMaxHeaderBytes = 64 * 1024;
  static constexpr std::size_t kMaxBodyBytes = 16 * 1024 * 1024;

  // Consumes `bytes`; returns the state after them. Bytes after a complete response are not
  // consumed (the client sends one request at a time; see leftover()).
  State feed(std::string_view bytes);
  // The peer closed: completes a body delimited by the close, or fails a short one.
  State end_of_stream();

  State state() const { return state_; }
  bool started() const { return !buffer_.empty() || stage_ != Stage::kHeaders; }
  const Response& response() const { return response_; }
  Response take_response() { return std::move(response_); }
  const std::string& error() const { return error_; }
  std::size_t leftover() const { return leftover_; }

 private:
  enum class Stage { kHeaders, kFixedBody, kChunkSize, kChunkData, kChunkDataEnd, kTrailers, kUntilClose, kDone };

  State fail(std::string message);
  State parse_headers(std::string_view head);
  State advance();

  State state_ = State::kNeedMore;
  Stage stage_ = Stage::kHeaders;
  std::string buffer_;   // bytes not yet consumed by the current stage
  std::size_t remaining_ = 0;  // body bytes (fixed) or chunk bytes still expected
  std::size_t leftover_ = 0;
  Response response_;
  std::string error_;
};

}  // namespace cutover::client
