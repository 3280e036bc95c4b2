// SPDX-License-Identifier: MIT
#include "domain/ParallelConfig.h"

#include "domain/TextList.h"

namespace carbon3d {

const char* recomputeName(Recompute recompute) {
    switch (recompute) {
    case Recompute::None:
        return "none";
    case Recompute::Selective:
        return "selective";
    case Recompute::Full:
        return "full";
    }
    return "?";
}

std::optional<Recompute> parseRecompute(std::string_view text) {
    for (const Recompute recompute : kRecomputeModes) {
        if (text == recomputeName(recompute))
            return recompute;
    }
    return std::nullopt;
}

std::string recomputeModeNames() {
    return joinedText(kRecomputeModes, "|", recomputeName);
}

std::string ParallelConfig::shapeLabel() const {
    // Built with append rather than operator+ chains: GCC 12 at -O2 raises a false -Wrestrict on those.
    std::string text;
    text.reserve(48);
    text.append("d").append(std::to_string(dp));
    text.append(" t").append(std::to_string(tp));
    if (cp > 1)
        text.append(" c").append(std::to_string(cp));
    text.append(" p").append(std::to_string(pp));
    if (ep > 1)
        text.append(" e").append(std::to_string(ep));
    if (expertTp > 1)
        text.append(" et").append(std::to_string(expertTp));
    return text;
}

std::string ParallelConfig::recomputeLabel() const {
    if (recompute == Recompute::Full && recomputeLayers > 0)
        return "block" + std::to_string(recomputeLayers);
    return recomputeName(recompute);
}

std::string ParallelConfig::label() const {
    std::string text = shapeLabel();
    text.append(" b").append(std::to_string(microBatch));
    if (interleave > 1)
        text.append(" v").append(std::to_string(interleave));
    text.append(" ").append(recomputeLabel());
    if (sequenceParallel)
        text.append(" sp");
    if (fullySharded)
        text.append(" fsdp");
    else if (distributedOptimizer)
        text.append(" dopt");
    return text;
}

} // namespace carbon3d
