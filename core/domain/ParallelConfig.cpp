// SPDX-License-Identifier: MIT
#include "domain/ParallelConfig.h"

namespace carbon3d {

const char* recomputeName(Recompute recompute)
{
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

std::string ParallelConfig::label() const
{
    std::string text = "d" + std::to_string(dp) + " t" + std::to_string(tp) + " p" + std::to_string(pp) + " b" +
                       std::to_string(microBatch);
    if (interleave > 1)
        text += " v" + std::to_string(interleave);
    text += std::string(" ") + recomputeName(recompute);
    if (sequenceParallel)
        text += " sp";
    if (distributedOptimizer)
        text += " dopt";
    return text;
}

} // namespace carbon3d
