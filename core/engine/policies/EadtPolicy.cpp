// SPDX-License-Identifier: MIT
#include "engine/policies/EadtPolicy.h"

#include <sstream>

namespace carbon3d {

double rateWithCodec(const ExecutionOption& option, double parameters, double tokensPerStep,
                     double hbmBytesPerS, double codecBytesPerParam) {
    if (option.config.dp <= 1 || option.workPerSecond <= 0.0)
        return option.workPerSecond;
    const double shardElements = parameters / (option.config.tp * option.config.pp);
    const double codecS = shardElements * codecBytesPerParam / hbmBytesPerS;
    return tokensPerStep / (tokensPerStep / option.workPerSecond + codecS);
}

EadtPolicy::EadtPolicy(const EadtParameters& parameters, std::unique_ptr<Policy> inner)
    : m_p(parameters)
    , m_inner(std::move(inner)) {}

std::map<std::string, std::string> EadtPolicy::options() const {
    auto text = [](double value) {
        std::ostringstream out;
        out << value;
        return out.str();
    };
    std::map<std::string, std::string> result{{"compression_ratio", text(m_p.compressionRatio)},
                                              {"transfer_precision", m_p.transferPrecision},
                                              {"arithmetic_precision", m_p.arithmeticPrecision},
                                              {"codec_bytes_per_param", text(m_p.codecBytesPerParam)},
                                              {"extra_steps", text(m_p.extraStepsFraction)},
                                              {"inner", m_p.innerName}};
    for (const auto& [key, value] : m_inner->options())
        result["inner." + key] = value;
    return result;
}

} // namespace carbon3d
