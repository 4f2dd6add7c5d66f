/* __FILE__ and __LINE__ in a header found next to the source that includes it. */
#define STR2(x) #x
#define STR(x) STR2(x)
const char *header_at = "HEADER_AT=" __FILE__ ":" STR(__LINE__);
