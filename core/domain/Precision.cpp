// SPDX-License-Identifier: MIT
#include "domain/Precision.h"

#include "domain/TextList.h"

namespace carbon3d {

const char* precisionName(Precision precision) {
    switch (precision) {
    case Precision::FP32:
        return "fp32";
    case Precision::TF32:
        return "tf32";
    case Precision::FP16:
        return "fp16";
    case Precision::BF16:
        return "bf16";
    case Precision::FP8:
        return "fp8";
    }
    return "?";
}

std::optional<Precision> parsePrecision(std::string_view text) {
    for (const Precision p : kPrecisions) {
        if (text == precisionName(p))
            return p;
    }
    return std::nullopt;
}

std::string precisionNames(std::string_view separator) {
    return joinedText(kPrecisions, separator, precisionName);
}

int bytesPerElement(Precision precision) {
    switch (precision) {
    case Precision::FP8:
        return 1;
    case Precision::FP16:
    case Precision::BF16:
        return 2;
    case Precision::FP32:
    case Precision::TF32:
        return 4;
    }
    return 2;
}

} // namespace carbon3d
