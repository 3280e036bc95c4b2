// SPDX-License-Identifier: MIT
// Loading a bundled 8,760-row year, against two baselines in the same run: reading the bytes alone
// (the floor) and a naive QString-per-cell parse of the same file (what the loader avoids).

#include "traces/TraceLoader.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QFile>
#include <QString>
#include <QStringList>
#include <benchmark/benchmark.h>
#include <fstream>
#include <string>

namespace {

std::string sample(const char* name) {
    return std::string(CARBON3D_SOURCE_DIR) + "/sample_data/traces/" + name;
}

std::string fixture(const char* name) {
    return std::string(CARBON3D_SOURCE_DIR) + "/tests/data/traces/" + name;
}

void BM_ReadBytesOnly(benchmark::State& state) {
    const std::string path = sample("DE_2022.csv");
    for (auto _ : state) {
        std::ifstream in(path, std::ios::binary | std::ios::ate);
        std::string bytes(static_cast<std::size_t>(in.tellg()), '\0');
        in.seekg(0);
        in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        benchmark::DoNotOptimize(bytes.data());
    }
}
BENCHMARK(BM_ReadBytesOnly)->Unit(benchmark::kMicrosecond);

// The provenance hash alone: QCryptographicHash's SHA-256 is plain software and dominates a load.
void BM_Sha256Only(benchmark::State& state) {
    QFile file(QString::fromStdString(sample("DE_2022.csv")));
    if (!file.open(QIODevice::ReadOnly))
        state.SkipWithError("cannot open");
    const QByteArray bytes = file.readAll();
    for (auto _ : state)
        benchmark::DoNotOptimize(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256));
}
BENCHMARK(BM_Sha256Only)->Unit(benchmark::kMicrosecond);

void BM_NaiveQStringParse(benchmark::State& state) {
    const QString path = QString::fromStdString(sample("DE_2022.csv"));
    for (auto _ : state) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            state.SkipWithError("cannot open");
        const QStringList lines =
            QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        double sum = 0.0;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QStringList cells = lines[i].split(QLatin1Char(','));
            sum += cells.value(1).toDouble();
            benchmark::DoNotOptimize(QDateTime::fromString(cells.value(0), Qt::ISODate));
        }
        benchmark::DoNotOptimize(sum);
    }
}
BENCHMARK(BM_NaiveQStringParse)->Unit(benchmark::kMicrosecond);

void BM_LoadCanonicalYear(benchmark::State& state) {
    const std::string path = sample("DE_2022.csv");
    for (auto _ : state)
        benchmark::DoNotOptimize(carbon3d::loadCarbonTrace(path).gPerKwh.data());
    state.SetItemsProcessed(state.iterations() * 8760);
}
BENCHMARK(BM_LoadCanonicalYear)->Unit(benchmark::kMicrosecond);

void BM_LoadElectricityMaps72h(benchmark::State& state) {
    const std::string path = fixture("DE_2022_electricitymaps.csv");
    for (auto _ : state)
        benchmark::DoNotOptimize(carbon3d::loadCarbonTrace(path).gPerKwh.data());
    state.SetItemsProcessed(state.iterations() * 72);
}
BENCHMARK(BM_LoadElectricityMaps72h)->Unit(benchmark::kMicrosecond);

void BM_LoadUkJson144(benchmark::State& state) {
    const std::string path = fixture("GB_2022_carbonintensity_national.json");
    for (auto _ : state)
        benchmark::DoNotOptimize(carbon3d::loadCarbonTrace(path).gPerKwh.data());
    state.SetItemsProcessed(state.iterations() * 144);
}
BENCHMARK(BM_LoadUkJson144)->Unit(benchmark::kMicrosecond);

} // namespace
