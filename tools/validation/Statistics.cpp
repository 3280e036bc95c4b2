// SPDX-License-Identifier: MIT
#include "validation/Statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace carbon3d {

ErrorStats errorStats(const std::vector<double>& predicted, const std::vector<double>& measured) {
    ErrorStats stats;
    const size_t n = std::min(predicted.size(), measured.size());
    if (n == 0)
        return stats;
    std::vector<double> absErrors(n);
    double sum = 0.0, signedSum = 0.0;
    for (size_t i = 0; i < n; ++i) {
        const double error = (predicted[i] - measured[i]) / measured[i];
        absErrors[i] = std::abs(error);
        sum += absErrors[i];
        signedSum += error;
    }
    stats.count = static_cast<int>(n);
    stats.mape = sum / n;
    stats.meanSignedError = signedSum / n;
    stats.maxAbsError = *std::max_element(absErrors.begin(), absErrors.end());
    stats.medianAbsError = median(std::move(absErrors));
    return stats;
}

double median(std::vector<double> values) {
    const size_t n = values.size();
    if (n == 0)
        return std::nan("");
    std::sort(values.begin(), values.end());
    return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

namespace {

std::vector<double> ranks(const std::vector<double>& values) {
    const size_t n = values.size();
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return values[a] < values[b]; });
    std::vector<double> result(n);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && values[order[j + 1]] == values[order[i]])
            ++j;
        const double average = 0.5 * (static_cast<double>(i) + static_cast<double>(j)) + 1.0;
        for (size_t k = i; k <= j; ++k)
            result[order[k]] = average;
        i = j + 1;
    }
    return result;
}

} // namespace

double spearman(const std::vector<double>& a, const std::vector<double>& b) {
    const size_t n = std::min(a.size(), b.size());
    if (n < 2)
        return 0.0;
    const std::vector<double> ra = ranks(std::vector<double>(a.begin(), a.begin() + n));
    const std::vector<double> rb = ranks(std::vector<double>(b.begin(), b.begin() + n));
    const double mean = (n + 1) / 2.0;
    double sab = 0.0, saa = 0.0, sbb = 0.0;
    for (size_t i = 0; i < n; ++i) {
        sab += (ra[i] - mean) * (rb[i] - mean);
        saa += (ra[i] - mean) * (ra[i] - mean);
        sbb += (rb[i] - mean) * (rb[i] - mean);
    }
    if (saa == 0.0 || sbb == 0.0)
        return 0.0;
    return sab / std::sqrt(saa * sbb);
}

std::vector<double> spearmanIfRowExact(const std::vector<double>& predicted,
                                       const std::vector<double>& measured) {
    const size_t n = std::min(predicted.size(), measured.size());
    std::vector<double> result(n);
    std::vector<double> trial(predicted.begin(), predicted.begin() + static_cast<std::ptrdiff_t>(n));
    for (size_t i = 0; i < n; ++i) {
        trial[i] = measured[i];
        result[i] = spearman(trial, measured);
        trial[i] = predicted[i];
    }
    return result;
}

} // namespace carbon3d
