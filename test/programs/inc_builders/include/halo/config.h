/* halo/config.h: problem sizes, overridable from the command line (the build gives -DNZ=6), and
 * the closed-form initial value of every global point. Included first into every source by the
 * build's `-include halo/config.h`, and again (guarded) by halo/types.h. */
#ifndef HALO_CONFIG_H
#define HALO_CONFIG_H

#ifndef NX
#define NX 10
#endif
#ifndef NY
#define NY 8
#endif
#ifndef NZ
#define NZ 4
#endif
#define NG 1
#define LX (NX + 2 * NG)
#define LY (NY + 2 * NG)
#define LZ (NZ + 2 * NG)
#define NPMAX 4 /* the widest ring the gathered plane holds */
#define IDX(z, y, x) (((z) * LY + (y)) * LX + (x))

#define GVAL(gz, gy, gx) ((double)((gz) * 10000 + (gy) * 100 + (gx)) + 0.5)

#endif /* HALO_CONFIG_H */
