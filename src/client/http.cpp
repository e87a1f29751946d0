// URL parsing, the GET request, and the response parser's stages (RFC 9112 §4 status line,
// §5 fields, §6.3 body length, §7.1 chunked coding, §9.3 persistence).
#include "client/http.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>
#include <charconv>

#include <fmt/format.h>

namespace cutover::client {
namespace {

using base::ErrorCode;
using base::make_error;

std::string lower(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

// Whether a comma-separated field value holds `token` (case-insensitive).
bool has_token(std::string_view value, std::string_view token) {
  while (!value.empty()) {
    auto comma = value.find(',');
    if (lower(trim(value.substr(0, comma))) == token) return true;
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  return false;
}

}  // namespace

std::string Url::authority() const {
  std::string shown = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  return fmt::format("{}:{}", shown, port);
}

base::Result<Url> parse_url(std::string_view text) {
  constexpr std::string_view kScheme = "http://";
  if (lower(text.substr(0, 8)) == "https://") {
    return make_error(ErrorCode::kUnsupported, "https:// is not supported: the reference client speaks plain HTTP only");
  }
  if (lower(text.substr(0, kScheme.size())) != kScheme) {
    return make_error(ErrorCode::kInvalidArgument, fmt::format("'{}' is not an http:// URL", text));
  }
  std::string_view rest = text.substr(kScheme.size());
  auto slash = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, slash);
  Url url;
  if (slash != std::string_view::npos) {
    std::string_view target = rest.substr(slash);
    target = target.substr(0, target.find('#'));  // the fragment stays with the client
    url.target = target.empty() || target.front() != '/' ? "/" + std::string(target) : std::string(target);
  }
  if (authority.find('@') != std::string_view::npos) {
    return make_error(ErrorCode::kUnsupported, "user information in the URL is not supported");
  }
  std::string_view port_text;
  if (!authority.empty() && authority.front() == '[') {
    auto close = authority.find(']');
    if (close == std::string_view::npos) return make_error(ErrorCode::kInvalidArgument, "unterminated [IPv6] in the URL");
    url.host = std::string(authority.substr(1, close - 1));
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return make_error(ErrorCode::kInvalidArgument, "expected :PORT after [IPv6]");
      port_text = after.substr(1);
    }
    in6_addr v6{};
    if (::inet_pton(AF_INET6, url.host.c_str(), &v6) != 1) {
      return make_error(ErrorCode::kInvalidArgument, fmt::format("'{}' is not an IPv6 address", url.host));
    }
    url.host_is_address = true;
  } else {
    auto colon = authority.find(':');
    url.host = lower(authority.substr(0, colon));
    if (colon != std::string_view::npos) port_text = authority.substr(colon + 1);
    in_addr v4{};
    url.host_is_address = ::inet_pton(AF_INET, url.host.c_str(), &v4) == 1;
  }
  if (url.host.empty()) return make_error(ErrorCode::kInvalidArgument, "the URL has no host");
  if (!port_text.empty()) {
    unsigned port = 0;
    auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (ec != std::errc() || end != port_text.data() + port_text.size() || port == 0 || port > 65535) {
      return make_error(ErrorCode::kInvalidArgument, fmt::format("'{}' is not a port from 1 to 65535", port_text));
    }
    url.port = static_cast<std::uint16_t>(port);
  }
  return url;
}

std::string build_get(const Url& url, bool keep_alive) {
  std::string host = url.port == 80 ? (url.host.find(':') != std::string::npos ? "[" + url.host + "]" : url.host)
                                    : url.authority();
  return fmt::format("GET {} HTTP/1.1\r\nHost: {}\r\nUser-Agent: cutover-fetch\r\nAccept: */*\r\n{}\r\n",
                     url.target, host, keep_alive ? "" : "Connection: close\r\n");
}

std::optional<std::string> Response::header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (key == name) return value;
  }
  return std::nullopt;
}

ResponseParser::State ResponseParser::fail(std::string message) {
  error_ = std::move(message);
  state_ = State::kError;
  return state_;
}

ResponseParser::State ResponseParser::parse_headers(std::string_view head) {
  auto line_end = head.find("\r\n");
  std::string_view status_line = head.substr(0, line_end);
  // RFC 9112 §4: HTTP/1.x SP 3DIGIT SP reason
  if (status_line.size() < 12 || status_line.substr(0, 7) != "HTTP/1." || !std::isdigit(static_cast<unsigned char>(status_line[7])) ||
      status_line[8] != ' ') {
    return fail(fmt::format("not an HTTP/1.x status line: '{}'", status_line.substr(0, 60)));
  }
  Response response;
  response.minor_version = status_line[7] - '0';
  auto [end, ec] = std::from_chars(status_line.data() + 9, status_line.data() + 12, response.status);
  if (ec != std::errc() || end != status_line.data() + 12 || response.status < 100 || response.status > 999) {
    return fail(fmt::format("bad status code in '{}'", status_line.substr(0, 60)));
  }
  response.reason = std::string(trim(status_line.size() > 13 ? status_line.substr(13) : std::string_view{}));
  std::string_view fields = line_end == std::string_view::npos ? std::string_view{} : head.substr(line_end + 2);
  while (!fields.empty()) {
    auto next = fields.find("\r\n");
    std::string_view line = fields.substr(0, next);
    fields = next == std::string_view::npos ? std::string_view{} : fields.substr(next + 2);
    if (line.empty()) continue;
    auto colon = line.find(':');
    // RFC 9112 §5.1: no whitespace between the field name and the colon.
    if (colon == std::string_view::npos || colon == 0 || line[colon - 1] == ' ' || line[0] == ' ' || line[0] == '\t') {
      return fail(fmt::format("malformed header line '{}'", line.substr(0, 60)));
    }
    response.headers.emplace_back(lower(line.substr(0, colon)), std::string(trim(line.substr(colon + 1))));
  }
  // Interim responses (RFC 9110 §15.2) are skipped: the final one follows.
  if (response.status >= 100 && response.status < 200) return State::kNeedMore;

  std::string connection;
  for (const auto& [key, value] : response.headers) {
    if (key == "connection") connection += value + ",";
  }
  response.keep_alive = response.minor_version >= 1 ? !has_token(connection, "close") : has_token(connection, "keep-alive");

  std::optional<std::string> transfer_encoding;
  std::optional<std::size_t> content_length;
  for (const auto& [key, value] : response.headers) {
    if (key == "transfer-encoding") transfer_encoding = transfer_encoding ? *transfer_encoding + "," + value : value;
    if (key == "content-length") {
      std::size_t length = 0;
      auto [last, error] = std::from_chars(value.data(), value.data() + value.size(), length);
      if (value.empty() || error != std::errc() || last != value.data() + value.size()) {
        return fail(fmt::format("bad Content-Length '{}'", value));
      }
      if (content_length && *content_length != length) return fail("two different Content-Length values");
      content_length = length;
    }
  }
  response_ = std::move(response);
  // RFC 9112 §6.3: the order in which the body length is decided.
  if (response_.status == 204 || response_.status == 304) {
    stage_ = Stage::kDone;
  } else if (transfer_encoding) {
    std::string codings = lower(*transfer_encoding);
    auto last_comma = codings.rfind(',');
    std::string final_coding(trim(last_comma == std::string::npos ? std::string_view(codings)
                                                                  : std::string_view(codings).substr(last_comma + 1)));
    if (final_coding == "chunked") {
      stage_ = Stage::kChunkSize;
    } else {
      stage_ = Stage::kUntilClose;
      response_.keep_alive = false;
    }
  } else if (content_length) {
    if (*content_length > kMaxBodyBytes) return fail(fmt::format("body of {} bytes is over the limit", *content_length));
    remaining_ = *content_length;
    stage_ = remaining_ == 0 ? Stage::kDone : Stage::kFixedBody;
  } else {
    stage_ = Stage::kUntilClose;
    response_.keep_alive = false;
  }
  return State::kNeedMore;
}

ResponseParser::State ResponseParser::advance() {
  while (state_ == State::kNeedMore) {
    switch (stage_) {
      case Stage::kHeaders: {
        auto end = buffer_.find("\r\n\r\n");
        if (end == std::string::npos) {
          if (buffer_.size() > kMaxHeaderBytes) return fail("response header over 64 KiB");
          return state_;
        }
        std::string head = buffer_.substr(0, end);
        buffer_.erase(0, end + 4);
        if (parse_headers(head) == State::kError) return state_;
        break;
      }
      case Stage::kFixedBody: {
        std::size_t take = std::min(remaining_, buffer_.size());
        response_.body.append(buffer_, 0, take);
        buffer_.erase(0, take);
        remaining_ -= take;
        if (remaining_ > 0) return state_;
        stage_ = Stage::kDone;
        break;
      }
      case Stage::kChunkSize: {
        auto end = buffer_.find("\r\n");
        if (end == std::string::npos) {
          if (buffer_.size() > 1024) return fail("chunk size line too long");
          return state_;
        }
        std::string_view line(buffer_.data(), end);
        line = line.substr(0, line.find(';'));  // chunk extensions are ignored (§7.1.1)
        line = trim(line);
        std::size_t size = 0;
        auto [last, error] = std::from_chars(line.data(), line.data() + line.size(), size, 16);
        if (line.empty() || error != std::errc() || last != line.data() + line.size()) {
          return fail(fmt::format("bad chunk size '{}'", line.substr(0, 20)));
        }
        buffer_.erase(0, end + 2);
        if (response_.body.size() + size > kMaxBodyBytes) return fail("chunked body over the limit");
        remaining_ = size;
        stage_ = size == 0 ? Stage::kTrailers : Stage::kChunkData;
        break;
      }
      case Stage::kChunkData: {
        std::size_t take = std::min(remaining_, buffer_.size());
        response_.body.append(buffer_, 0, take);
        buffer_.erase(0, take);
        remaining_ -= take;
        if (remaining_ > 0) return state_;
        stage_ = Stage::kChunkDataEnd;
        break;
      }
      case Stage::kChunkDataEnd: {
        if (buffer_.size() < 2) return state_;
        if (buffer_.compare(0, 2, "\r\n") != 0) return fail("chunk data not followed by CRLF");
        buffer_.erase(0, 2);
        stage_ = Stage::kChunkSize;
        break;
      }
      case Stage::kTrailers: {
        // §7.1.2: trailer fields, then an empty line; their values are not used.
        auto end = buffer_.find("\r\n");
        if (end == std::string::npos) {
          if (buffer_.size() > kMaxHeaderBytes) return fail("trailer section over 64 KiB");
          return state_;
        }
        buffer_.erase(0, end + 2);
        if (end == 0) stage_ = Stage::kDone;
        break;
      }
      case Stage::kUntilClose: {
        if (response_.body.size() + buffer_.size() > kMaxBodyBytes) return fail("body over the limit");
        response_.body += buffer_;
        buffer_.clear();
        return state_;
      }
      case Stage::kDone: {
        leftover_ = buffer_.size();
        state_ = State::kComplete;
        return state_;
      }
    }
  }
  return state_;
}

ResponseParser::State ResponseParser::feed(std::string_view bytes) {
  if (state_ != State::kNeedMore) return state_;
  buffer_.append(bytes);
  return advance();
}

ResponseParser::State ResponseParser::end_of_stream() {
  if (state_ != State::kNeedMore) return state_;
  if (stage_ == Stage::kUntilClose) {
    stage_ = Stage::kDone;
    return advance();
  }
  if (stage_ == Stage::kHeaders && buffer_.empty()) return fail("the connection closed before any response");
  return fail("the connection closed in the middle of the response");
}

}  // namespace cutover::client
