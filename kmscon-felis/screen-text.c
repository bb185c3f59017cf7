/* kmscon-felis/screen-text.c: see screen-text.h. */
#include "kmscon-felis/screen-text.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "grid/grid.h"
#include "vt/vt.h"

/* Code points kept per cell. A cell holds a few in practice; a longer cluster is cut, never overrun. */
#define CELL_CPS 32

int kf_screen_text(const struct grid *g, FILE *out)
{
	int cols = grid_cols(g), rows = grid_rows(g);
	uint32_t cps[CELL_CPS];
	/* one line: at most CELL_CPS code points of 4 bytes per cell, and the newline */
	char *line = malloc((size_t)cols * CELL_CPS * 4 + 1);
	if (!line)
		return -ENOMEM;
	for (int y = 0; y < rows; y++) {
		const struct grid_cell *row = grid_row(g, y);
		size_t len = 0, trimmed = 0;
		for (int x = 0; x < cols; x++) {
			if (row[x].width == 0)
				continue; /* right half of a wide character */
			size_t n = grid_cell_codepoints(g, &row[x], cps, CELL_CPS);
			if (n > CELL_CPS)
				n = CELL_CPS;
			/* a blank is a space that ends no line: only what follows it keeps it */
			if (n == 0 || (n == 1 && cps[0] == ' ')) {
				line[len++] = ' ';
				continue;
			}
			for (size_t i = 0; i < n; i++)
				len += vt_utf8_encode(cps[i], line + len);
			trimmed = len;
		}
		line[trimmed] = '\n';
		/* the first failed write's own errno (ENOSPC from a full disk, not a generic EIO), and no more
		 * writes after it */
		errno = 0;
		if (fwrite(line, 1, trimmed + 1, out) != trimmed + 1) {
			int e = errno ? errno : EIO;
			free(line);
			return -e;
		}
	}
	free(line);
	return ferror(out) ? -EIO : 0;
}
