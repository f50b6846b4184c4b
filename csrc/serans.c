#include "serans.h"
int sr_version(void) { return 0; }
