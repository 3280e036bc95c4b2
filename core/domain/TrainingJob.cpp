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

namespace {

// FP32 and TF32 training keep 32-bit gradients whatever the stack says.
bool trainsIn32Bits(Precision precision) {
    return bytesPerElement(precision) >= 4;
}

} // namespace

bool holdsBf16Gradients(const TrainingJob& job) {
    return job.bf16Gradients && !trainsIn32Bits(job.precision);
}

std::string bf16GradientsProblem(const TrainingJob& job) {
    if (!trainsIn32Bits(job.precision))
        return {};
    return std::string("applies to 16-bit and fp8 training only; this job trains in ") +
           precisionName(job.precision);
}

bool contextParallelSplits(int seqLen, int cp) {
    return cp >= 1 && seqLen % (2 * cp) == 0;
}

std::string contextParallelProblem(const TrainingJob& job) {
    const int cp = job.contextParallel;
    if (cp < 1)
        return "must be at least 1";
    if (contextParallelSplits(job.model.seqLen, cp))
        return {};
    return "does not split the sequence: its length " + std::to_string(job.model.seqLen) +
           " must be a multiple of 2 x " + std::to_string(cp);
}

} // namespace carbon3d
