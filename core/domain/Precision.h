// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace carbon3d {

// Arithmetic precision of the matrix units used for training.
enum class Precision { FP32, TF32, FP16, BF16, FP8 };
inline constexpr Precision kPrecisions[] = {Precision::FP32, Precision::TF32, Precision::FP16,
                                            Precision::BF16, Precision::FP8};

const char* precisionName(Precision precision); // "fp32", "tf32", "fp16", "bf16", "fp8"
std::optional<Precision> parsePrecision(std::string_view text);
// "fp32, tf32, fp16, bf16, fp8" (or joined by another separator), from kPrecisions, for messages and help.
std::string precisionNames(std::string_view separator = ", ");
// Bytes per element of weights/gradients/activations moved in that precision (fp8: 1, fp16/bf16: 2,
// fp32/tf32: 4).
int bytesPerElement(Precision precision);

} // namespace carbon3d
