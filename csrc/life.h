/* Buntes Leben core (to be written). */
#ifndef LIFE_H
#define LIFE_H
int bl_version(void);
#endif
