// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

namespace carbon3d::reports {

// Calls job(i) for every i in [0, count) on up to std::thread::hardware_concurrency() threads (the reports'
// searches and simulations are independent of each other, and the slow ones are minutes long). Returns once
// every call has returned; rethrows the first exception a call threw. Standard threads, not QtConcurrent:
// the core links Qt6::Core only.
void forEachInParallel(size_t count, const std::function<void(size_t)>& job);

// The results of job(0) ... job(count - 1), in index order: each result depends on its job alone, so the
// output does not depend on how the calls were scheduled.
template <typename Result, typename Job> std::vector<Result> mapInParallel(size_t count, const Job& job) {
    std::vector<std::optional<Result>> slots(count);
    forEachInParallel(count, [&](size_t i) { slots[i].emplace(job(i)); });
    std::vector<Result> results;
    results.reserve(count);
    for (std::optional<Result>& slot : slots)
        results.push_back(std::move(*slot));
    return results;
}

} // namespace carbon3d::reports
