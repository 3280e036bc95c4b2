// SPDX-License-Identifier: MIT
#pragma once

#include "domain/Json.h"
#include "study/StudyDefinition.h"

#include <string>
#include <vector>

// The Learn page's "When does dynamic 3D parallelism pay?" lesson, written from its study's own numbers
// (sample_data/studies/when-dynamic-3d-pays.json): the study is run, each dynamic-3d run set beside the
// strongest simpler policy of the same setting, and the lesson's text quotes only those numbers.
// `carbon3d-validate report-study-lesson` writes it; the golden test regenerates it and diffs it against the
// committed lesson. docs/RESULTS.md and docs/REPRODUCTION.md state the same condition from the same numbers.
namespace carbon3d::reports {

// What the job's menu offers reshaping, for one GPU count of the study (runner/ReshapingOutlook.h).
struct StudyLessonJob {
    std::string gpus;          // the gpus column's text
    std::string fullSize;      // e.g. "d512 t1 p1"
    std::string mostEfficient; // e.g. "d16 t1 p1"
    double spread = 1.0;       // full size's energy per token over the most efficient's (active GPUs)
};

// One setting: a GPU count, who pays for parked GPUs and a forecast, over every start and grid.
struct StudyLessonGroup {
    std::string gpus;
    std::string parked;   // "idle" or "released"
    std::string forecast; // the forecast column's text
    std::size_t runs = 0; // starts x grids compared
    // Medians over the runs of the savings against the baseline (static-max), fractions.
    double policyMedian = 0.0;  // dynamic-3d's
    double simplerMedian = 0.0; // the strongest simpler policy's (least emissions of the run's setting)
    // Median of dynamic-3d's saving minus the strongest simpler policy's (in points of the baseline).
    double leadMedian = 0.0;
    std::size_t ahead = 0;      // runs where dynamic-3d saves more than a point more
    std::size_t behind = 0;     // ... more than a point less
    std::string usualStrongest; // the simpler policy most often the strongest
    std::size_t usualStrongestRuns = 0;
};

struct StudyLessonNumbers {
    std::string policy;               // the focused policy (dynamic-3d)
    std::string baseline;             // the catalogue's baseline (static-max)
    std::vector<std::string> simpler; // the simpler policies the study runs, in its order
    std::string defaultForecast;      // the forecast kind a scenario gets when it names none
    std::size_t cells = 0;
    std::vector<StudyLessonJob> jobs;     // per GPU count, in the study's order
    std::vector<StudyLessonGroup> groups; // gpus x parked x forecast, in the study's order
    // The lesson's scenario: a typical run of the setting where reshaping leads the most (released GPUs,
    // the default forecast): the cell whose lead is that group's median.
    std::size_t openedCell = 0;
    std::string openedRegion, openedStart, openedGpus, openedStrongest;
    double openedLead = 0.0;
};

// The lesson's study, as the text names it (a repository path, the same on every machine), and the study
// read from a sample-data directory (its traces from DIR/traces).
inline constexpr const char* kStudyLessonFile = "sample_data/studies/when-dynamic-3d-pays.json";
StudyDefinition loadStudyLesson(const std::string& sampleDataDirectory);

// Runs the study (every core) and compares dynamic-3d with the strongest simpler policy in each setting.
// The study needs the gpus, start, region, parked_gpus, forecast and policy axes, with the baseline, the
// focused policy and at least one simpler policy (PolicyTraits::simplerPlan) among the policies.
StudyLessonNumbers computeStudyLesson(const StudyDefinition& study);

// Whether reshaping pays for a GPU count: dynamic-3d's median lead over the strongest simpler policy is
// more than a point under every forecast, with parked GPUs released (docs/DECISIONS.md).
bool reshapingPays(const StudyLessonNumbers& numbers, const std::string& gpus);

// The lesson as a scenario file for the Learn page: the opened cell's scenario with the base scenario's
// policies, named for the lesson, its description written from the numbers. `studyFile` is how the text
// names the study (a repository path).
JsonValue studyLessonScenario(const StudyDefinition& study, const StudyLessonNumbers& numbers,
                              const std::string& studyFile, const std::string& scenarioDir);

// The condition in Markdown for the generated documents: a table of every setting (docs/RESULTS.md), and a
// bullet per GPU count saying whether reshaping pays, with the numbers that decide it (both documents).
std::string studyLessonTableMarkdown(const StudyLessonNumbers& numbers);
std::string studyLessonVerdictMarkdown(const StudyLessonNumbers& numbers);

} // namespace carbon3d::reports
