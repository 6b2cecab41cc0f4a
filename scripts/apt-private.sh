# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Sourced: apt_private_setup DIR SUITE, then apt_private ARGS... runs apt-get
# on a private sources list (SUITE of the Debian archive's mirror the
# machine's apt already uses, read with `apt-get indextargets`), lists
# directory and package cache under DIR, without touching the machine's apt
# configuration; no host name is written anywhere in this repository.

apt_private_setup() {
	APT_PRIVATE=$1
	mkdir -p "$APT_PRIVATE/lists/partial" "$APT_PRIVATE/cache/archives/partial" "$APT_PRIVATE/etc"
	# the Debian archive, not the security archive (its suites are <codename>-security)
	local mirror
	mirror=$(apt-get indextargets --format '$(LABEL) $(REPO_URI)' 2>/dev/null |
		 awk '$1 == "Debian" { print $2; exit }')
	[ -n "$mirror" ] || { echo "no Debian archive in the machine's apt sources (apt-get indextargets)" >&2; return 1; }
	printf 'deb %s %s main\n' "$mirror" "$2" > "$APT_PRIVATE/etc/sources.list"
}

apt_private() {
	apt-get -q -o Dir::Etc::sourcelist="$APT_PRIVATE/etc/sources.list" \
		-o Dir::Etc::sourceparts=/nonexistent \
		-o Dir::State::Lists="$APT_PRIVATE/lists" \
		-o Dir::Cache="$APT_PRIVATE/cache" \
		-o Dir::State::status=/var/lib/dpkg/status \
		-o APT::Get::List-Cleanup=0 -o APT::Sandbox::User=root "$@"
}

# apt-cache on the same private configuration (show, policy, depends ...)
apt_private_cache() {
	apt-cache -q -o Dir::Etc::sourcelist="$APT_PRIVATE/etc/sources.list" \
		-o Dir::Etc::sourceparts=/nonexistent \
		-o Dir::State::Lists="$APT_PRIVATE/lists" \
		-o Dir::Cache="$APT_PRIVATE/cache" \
		-o Dir::State::status=/var/lib/dpkg/status "$@"
}
