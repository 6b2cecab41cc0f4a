# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Classify a diff(1) of two btfcanon outputs (< upstream, > btf2btf) and
# print "UNDOCUMENTED DANGLING": the number of differing lines that are not
# the documented difference, and the number of upstream's dangling decl tags.
#
# The documented difference: upstream leaves the decl tag of a parameter the
# reduced prototype drops on the kfunc (component_idx >= vlen, btfcanon ends
# the line in " DANGLING"; the kernel refuses it); btf2btf moves it to
# X_impl. Where upstream copied it to X_impl too, only the dangling line
# differs; where it did not (a legacy X_impl from the source), btf2btf's
# moved copy differs as well and pairs with the dangling one by tag name,
# kind_flag, component and X.
/^< decl_tag.* DANGLING$/ {
	dangling++
	if (match($0, /^< decl_tag(\[attr\])? '[^']*' comp=[0-9]+ on func '[^']*'/))
		moved[substr($0, 3, RLENGTH - 3) "_impl'"]++
	next
}
/^> decl_tag/ {
	if (match($0, /^> decl_tag(\[attr\])? '[^']*' comp=[0-9]+ on func '[^']*'/) &&
	    moved[substr($0, 3, RLENGTH - 2)]-- > 0)
		next
}
/^[<>] / { undocumented++ }
END { print undocumented + 0, dangling + 0 }
