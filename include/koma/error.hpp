// Errors koma raises. Every error says what is wrong and, where there is one,
// where: descriptor errors carry file, line and column.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace koma {

// Base of every koma exception.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A descriptor (YAML) is malformed or breaks a rule of the schema, or an option
// override is not allowed. what() reads "file:line:column: sentence".
class DescriptorError : public Error {
 public:
  DescriptorError(std::string file, int line, int column, std::string message);
  const std::string& file() const { return file_; }
  int line() const { return line_; }      // from 1; 0 when unknown
  int column() const { return column_; }  // from 1; 0 when unknown
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  int line_, column_;
  std::string message_;
};

// Position or move text that cannot be read. what() names the offending part.
class NotationError : public Error {
 public:
  using Error::Error;
};

// A move or action that is not legal here, or an API call that the game's
// state does not allow (undo at the start, playing a finished game). The game
// is left unchanged.
class IllegalMove : public Error {
 public:
  using Error::Error;
};

// User text made safe to echo in a message: printable ASCII and valid UTF-8
// are kept, every other byte (control characters such as ESC, NUL or a line
// break, DEL, the C1 controls U+0080-U+009F, bytes that are not well-formed
// UTF-8) is written as `\xNN`, lower-case hex: ESC is `\x1b`, NUL `\x00`. The
// result is one printable line however `text` was made. Past `max_bytes` bytes
// of `text` (cut before a character, never inside one) the rest is left out
// and `...` appended. NotationError messages echo user text this way.
std::string escape_text(std::string_view text, std::size_t max_bytes = std::string_view::npos);

}  // namespace koma
