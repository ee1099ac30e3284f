// The service/API description version (spec 9); paths carry its major version (/v5).
export const API_VERSION = '5.0.0'
