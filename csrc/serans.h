/* Las Torres de Serans core (to be written). */
#ifndef SERANS_H
#define SERANS_H
int sr_version(void);
#endif
