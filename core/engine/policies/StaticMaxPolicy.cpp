// SPDX-License-Identifier: MIT
#include "engine/policies/StaticMaxPolicy.h"
