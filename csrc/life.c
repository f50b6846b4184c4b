#include "life.h"
int bl_version(void) { return 0; }
