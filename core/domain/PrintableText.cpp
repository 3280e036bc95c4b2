// SPDX-License-Identifier: MIT
#include "domain/PrintableText.h"

#include <array>
#include <cstdint>

namespace carbon3d {

namespace {

bool isContinuation(unsigned char byte) {
    return (byte & 0xC0U) == 0x80U;
}

void appendEscapedByte(std::string& out, unsigned char byte) {
    switch (byte) {
    case '\n':
        out += "\\n";
        return;
    case '\t':
        out += "\\t";
        return;
    case '\r':
        out += "\\r";
        return;
    case '\0':
        out += "\\0";
        return;
    default:
        static constexpr std::array<char, 16> kHex{'0', '1', '2', '3', '4', '5', '6', '7',
                                                   '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};
        out += "\\x";
        out += kHex[byte >> 4U];
        out += kHex[byte & 0xFU];
    }
}

// Appends the character at text[pos], escaped if need be; returns the bytes it took.
std::size_t appendPrintable(std::string& out, std::string_view text, std::size_t pos) {
    const auto byte = static_cast<unsigned char>(text[pos]);
    if (byte < 0x20U || byte == 0x7FU) {
        appendEscapedByte(out, byte);
        return 1;
    }
    const std::size_t length = utf8SequenceLength(text, pos);
    if (length == 0) {
        appendEscapedByte(out, byte);
        return 1;
    }
    out.append(text.substr(pos, length));
    return length;
}

} // namespace

std::size_t utf8SequenceLength(std::string_view text, std::size_t pos) {
    const auto lead = static_cast<unsigned char>(text[pos]);
    if (lead < 0x80U)
        return 1;
    std::size_t length = 0;
    std::uint32_t codePoint = 0;
    if ((lead & 0xE0U) == 0xC0U) {
        length = 2;
        codePoint = lead & 0x1FU;
    } else if ((lead & 0xF0U) == 0xE0U) {
        length = 3;
        codePoint = lead & 0x0FU;
    } else if ((lead & 0xF8U) == 0xF0U) {
        length = 4;
        codePoint = lead & 0x07U;
    } else {
        return 0; // a continuation byte or 0xF8..0xFF
    }
    if (pos + length > text.size())
        return 0;
    for (std::size_t i = 1; i < length; ++i) {
        const auto byte = static_cast<unsigned char>(text[pos + i]);
        if (!isContinuation(byte))
            return 0;
        codePoint = (codePoint << 6U) | (byte & 0x3FU);
    }
    static constexpr std::array<std::uint32_t, 5> kSmallest{0, 0, 0x80, 0x800, 0x10000};
    const bool overlong = codePoint < kSmallest[length];
    const bool surrogate = codePoint >= 0xD800 && codePoint <= 0xDFFF;
    return overlong || surrogate || codePoint > 0x10FFFF ? 0 : length;
}

std::string printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t pos = 0; pos < text.size();)
        pos += appendPrintable(out, text, pos);
    return out;
}

std::string excerpt(std::string_view text, std::size_t maxBytes) {
    std::string out;
    std::size_t pos = 0;
    while (pos < text.size() && pos < maxBytes)
        pos += appendPrintable(out, text, pos);
    if (pos < text.size())
        out += "... (" + std::to_string(text.size()) + " bytes)";
    return out;
}

std::string quotedExcerpt(std::string_view text, std::size_t maxBytes) {
    return "'" + excerpt(text, maxBytes) + "'";
}

std::string validUtf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t pos = 0; pos < text.size();) {
        const std::size_t length = utf8SequenceLength(text, pos);
        if (length == 0) {
            out += "\xEF\xBF\xBD"; // U+FFFD REPLACEMENT CHARACTER
            ++pos;
        } else {
            out.append(text.substr(pos, length));
            pos += length;
        }
    }
    return out;
}

} // namespace carbon3d
