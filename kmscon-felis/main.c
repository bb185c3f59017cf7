/* kmscon-felis/main.c: placeholder entry point until the session issue (3) lands. */
#include <stdio.h>

#include "kf-config.h"

int main(void)
{
	printf("kmscon-felis %s\n", KF_VERSION);
	return 0;
}
