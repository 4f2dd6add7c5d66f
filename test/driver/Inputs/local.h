/* Found through the source's own directory: the rewritten copy must still find it. */
#define LOCAL_N 8
