// SPDX-License-Identifier: MIT
#pragma once

#include "domain/Json.h"
#include "study/StudyDefinition.h"

#include <string>
#include <vector>

// The Learn page's "When does dynamic 3D parallelism pay?" lesson, written from its study's own numbers
// (sample_data/studies/when-dynamic-3d-pays.json): the study is run, its savings grouped, and the lesson's
// text quotes only those numbers. `carbon3d-validate report-study-lesson` writes it; the golden test
// regenerates it and diffs it against the committed lesson.
namespace carbon3d::reports {

struct StudyLessonGroup {
    std::string parked; // "idle" or "released"
    double slack = 0.0;
    std::size_t cells = 0;
    double median = 0.0; // of the focused policy's savings against the baseline, fraction
    double best = 0.0;
    std::size_t paying = 0; // cells saving more than 1 %
};

struct StudyLessonRegion {
    std::string region;
    double median = 0.0; // in the most favourable group (released GPUs, the largest slack)
};

struct StudyLessonNumbers {
    std::string policy;   // the focused policy (dynamic-3d)
    std::string baseline; // the catalogue's baseline (static-max)
    std::size_t cells = 0;
    std::size_t compared = 0;               // cells of the policy with a baseline to compare with
    std::vector<StudyLessonGroup> groups;   // parked x slack, in the study's order
    std::vector<StudyLessonRegion> regions; // most to least
    std::string bestRegion, bestStart;
    double bestSavings = 0.0;
    std::size_t bestCell = 0; // the cell of the best saving: the lesson's scenario
};

// Runs the study (every core) and groups the focused policy's savings. The study needs the start, region,
// slack, parked_gpus and policy axes, with the baseline and the focused policy among the policies.
StudyLessonNumbers computeStudyLesson(const StudyDefinition& study);
// The lesson as a scenario file for the Learn page: the best cell's scenario with the base scenario's
// policies, named for the lesson, its description written from the numbers. `studyFile` is how the text
// names the study (a repository path).
JsonValue studyLessonScenario(const StudyDefinition& study, const StudyLessonNumbers& numbers,
                              const std::string& studyFile, const std::string& scenarioDir);

} // namespace carbon3d::reports
