// API testing without a browser (docs/steps-guide.md, "API testing").
// Requests go through this.request (Playwright's APIRequestContext), so
// relative URLs resolve against [browser] baseURL, cookies persist within
// the scenario, and no browser is started.
import './api_request' // preparing and sending requests
import './api_response' // checking and remembering responses
import './api_graphql' // GraphQL queries and their errors
import './api_xml' // XML responses: XPath, documents with markers
import './api_websocket' // WebSocket send and expect
