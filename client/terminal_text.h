// Text from the server (dataset descriptions, ids, column names,
// constraints, labels, notes, error messages: all chosen by a dataset owner
// or another remote party) made safe to print on a terminal. Raw, an ESC
// sequence could clear the screen or move the cursor, and a newline could
// forge table rows, on a buyer's terminal.
#ifndef DPQ_CLIENT_TERMINAL_TEXT_H_
#define DPQ_CLIENT_TERMINAL_TEXT_H_

#include <string>

#include "absl/strings/string_view.h"

namespace dpq::client {

// `text` with every character a terminal could act on written as visible
// ASCII: TAB, LF and CR as \t, \n, \r; other C0 controls (ESC included) and
// DEL as \xHH; C1 controls (U+0080-U+009F) as \uHHHH; bytes that are not
// valid UTF-8 as \xHH. Everything else, valid printable UTF-8 included
// (e.g. "Zürich", "±"), is kept as is, so that a table can still count one
// column per code point. A backslash is kept too: "\x1b" in the output is
// either an escaped ESC or those four characters, never an ESC.
std::string TerminalSafe(absl::string_view text);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_TERMINAL_TEXT_H_
