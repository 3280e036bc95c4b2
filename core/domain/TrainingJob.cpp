// SPDX-License-Identifier: MIT
#include "domain/TrainingJob.h"

namespace carbon3d {

const char* attentionKernelName(AttentionKernel kernel) {
    switch (kernel) {
    case AttentionKernel::Flash:
        return "flash";
    case AttentionKernel::Materialized:
        return "materialized";
    }
    return "?";
}

std::optional<AttentionKernel> parseAttentionKernel(std::string_view text) {
    for (const AttentionKernel kernel : {AttentionKernel::Flash, AttentionKernel::Materialized}) {
        if (text == attentionKernelName(kernel))
            return kernel;
    }
    return std::nullopt;
}

} // namespace carbon3d
