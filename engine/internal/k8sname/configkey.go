package k8sname

// IsConfigKeyChars reports whether s matches [-._a-zA-Z0-9]+, the
// characters of a ConfigMap or Secret key.
func IsConfigKeyChars(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !alnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}
