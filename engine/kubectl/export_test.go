package kubectl

// JQAvailable exports jqAvailable to the package's external tests.
const JQAvailable = jqAvailable

// InvalidMessage exports invalidMessage to the package's external tests.
var InvalidMessage = invalidMessage
