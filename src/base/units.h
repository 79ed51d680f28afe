/* Numbers with units: pi and the points (1/72 in) in a millimetre. */
#ifndef CB_UNITS_H
#define CB_UNITS_H

#define CB_PI 3.14159265358979323846
#define CB_PT_PER_MM (72.0 / 25.4)

#endif
