package kubectl

// JQAvailable exports jqAvailable to the package's external tests.
const JQAvailable = jqAvailable
