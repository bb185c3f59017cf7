/* tests/config/config-cli.c: the start-up path of main.c without the rest of the program: parses the command
 * line and configuration like kmscon-felis does, then prints the resulting configuration as file text.
 * Exit status: 0 (also after --help/--version), 2 for a bad configuration, 1 for other failures. */
#include <errno.h>
#include <stdio.h>

#include "kmscon-felis/config.h"
#include "kmscon-felis/log.h"

int main(int argc, char **argv)
{
	struct kf_config cfg;
	kf_log_init();
	int ret = kf_config_parse(&cfg, argc, argv);
	if (ret == 0) {
		kf_config_write(&cfg, stdout);
		for (char **a = cfg.login_argv; *a; a++)
			printf("argv: [%s]\n", *a);
	}
	kf_config_finish(&cfg);
	if (ret == KF_CONFIG_EXIT || ret == 0)
		return 0;
	return ret == -EINVAL ? KF_CONFIG_EXIT_USAGE : 1;
}
