// The auto-start class of details on demand, declared with its behaviour.
#include "pqMacroscopeDetailsBehavior.h"
