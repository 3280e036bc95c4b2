// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

// Text from input files, on its way into a message or an output: bounded, escaped and valid UTF-8, so
// that a 10 MB cell, a NUL byte or a stray Latin-1 byte can neither flood a message, nor cut it short,
// nor make a strict JSON parser refuse what we print (docs/RELIABILITY.md "Bad input").
namespace carbon3d {

// Bytes of the valid UTF-8 sequence that starts at text[pos] (1 to 4), or 0 when none starts there
// (a stray continuation byte, an overlong form, a surrogate, a code point above U+10FFFF, a cut sequence).
std::size_t utf8SequenceLength(std::string_view text, std::size_t pos);

// `text` with control characters written as \n, \t, \r, \0 or \xNN and invalid UTF-8 bytes as \xNN; valid
// UTF-8 is kept as it is.
std::string printable(std::string_view text);

// printable(text), cut after about `maxBytes` bytes of the original (never inside a UTF-8 sequence), with
// "... (N bytes)" saying how long the whole was.
std::string excerpt(std::string_view text, std::size_t maxBytes = 40);

// excerpt(text) in single quotes: how a message quotes a bad value.
std::string quotedExcerpt(std::string_view text, std::size_t maxBytes = 40);

// `text` with every invalid UTF-8 byte replaced by U+FFFD: what an output that must be UTF-8 (JSON) writes.
std::string validUtf8(std::string_view text);

} // namespace carbon3d
