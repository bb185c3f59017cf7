/* vt/parser-sink.c: changes to a parser's sink after it was made. In a file of its own, last in the library:
 * the parser's functions keep their places in their pages (an emulated guest's count depends on them). */
#include "vt/parser-internal.h"

void vt_parser_set_csi_bytes(struct vt_parser *p, uint8_t f, vt_csi_bytes_fn fn)
{
	if (p->sink.csi_bytes_final && fn && f >= 0x40 && f <= 0x7e)
		p->csi_tab[f] = fn;
}

void vt_parser_set_del_exec(struct vt_parser *p, bool on)
{
	/* the ground state's entry for DEL, the only one that changes: the feed loops leave DEL to the table */
	p->trans[S_GROUND][0x7f] = (uint8_t)((on ? A_EXEC : A_VOID) << 4 | S_GROUND);
}
