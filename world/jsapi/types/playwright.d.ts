// Types of Playwright's API as ferridriver provides it: `@playwright/test`
// (also `playwright/test`, `playwright`, `playwright-core`) and the global
// `expect`. Written for ferridriver; no npm package is needed. Regenerate
// with `ferridriver init --force` after an upgrade. The methods are
// Playwright's; what ferridriver does not bind is left out.

declare module '@playwright/test' {
  /** Bytes, as a Node Buffer (screenshots, bodies). */
  export type Bytes = Uint8Array & { toString(encoding?: 'utf8' | 'base64' | 'hex' | 'latin1'): string }

  /** A page function: its source text runs in the page. */
  export type PageFunction<Arg, R> = string | ((arg: Arg) => R | Promise<R>)
  export type PageFunctionOn<On, Arg, R> = string | ((on: On, arg: Arg) => R | Promise<R>)

  export type AriaRole =
    | 'alert' | 'alertdialog' | 'application' | 'article' | 'banner' | 'blockquote' | 'button' | 'caption' | 'cell'
    | 'checkbox' | 'code' | 'columnheader' | 'combobox' | 'complementary' | 'contentinfo' | 'definition' | 'deletion'
    | 'dialog' | 'directory' | 'document' | 'emphasis' | 'feed' | 'figure' | 'form' | 'generic' | 'grid' | 'gridcell'
    | 'group' | 'heading' | 'img' | 'insertion' | 'link' | 'list' | 'listbox' | 'listitem' | 'log' | 'main' | 'marquee'
    | 'math' | 'meter' | 'menu' | 'menubar' | 'menuitem' | 'menuitemcheckbox' | 'menuitemradio' | 'navigation' | 'none'
    | 'note' | 'option' | 'paragraph' | 'presentation' | 'progressbar' | 'radio' | 'radiogroup' | 'region' | 'row'
    | 'rowgroup' | 'rowheader' | 'scrollbar' | 'search' | 'searchbox' | 'separator' | 'slider' | 'spinbutton' | 'status'
    | 'strong' | 'subscript' | 'superscript' | 'switch' | 'tab' | 'table' | 'tablist' | 'tabpanel' | 'term' | 'textbox'
    | 'time' | 'timer' | 'toolbar' | 'tooltip' | 'tree' | 'treegrid' | 'treeitem'

  export type URLMatch = string | RegExp | ((url: URL) => boolean)
  export type LoadState = 'load' | 'domcontentloaded' | 'networkidle'
  export type WaitUntil = LoadState | 'commit'
  export type MouseButton = 'left' | 'right' | 'middle'
  export type KeyboardModifier = 'Alt' | 'Control' | 'ControlOrMeta' | 'Meta' | 'Shift'

  export interface TimeoutOptions { timeout?: number }
  export interface Position { x: number; y: number }
  export interface Rect { x: number; y: number; width: number; height: number }
  export interface ViewportSize { width: number; height: number }

  export interface GetByTextOptions { exact?: boolean }
  export interface GetByRoleOptions {
    name?: string | RegExp
    exact?: boolean
    checked?: boolean
    disabled?: boolean
    expanded?: boolean
    includeHidden?: boolean
    level?: number
    pressed?: boolean
    selected?: boolean
  }
  export interface LocatorOptions {
    has?: Locator
    hasNot?: Locator
    hasText?: string | RegExp
    hasNotText?: string | RegExp
  }
  export interface FilterOptions extends LocatorOptions { visible?: boolean }
  export interface ClickOptions extends TimeoutOptions {
    button?: MouseButton
    clickCount?: number
    delay?: number
    force?: boolean
    modifiers?: KeyboardModifier[]
    noWaitAfter?: boolean
    position?: Position
    trial?: boolean
  }
  export interface ActionOptions extends TimeoutOptions { force?: boolean; noWaitAfter?: boolean }
  export interface TypeOptions extends TimeoutOptions { delay?: number; noWaitAfter?: boolean }
  export interface CheckOptions extends ActionOptions { position?: Position; trial?: boolean }
  export interface HoverOptions extends CheckOptions { modifiers?: KeyboardModifier[] }
  export type SelectOption = string | { value?: string; label?: string; index?: number } | ElementHandle
  export interface FilePayload { name: string; mimeType: string; buffer: Uint8Array }
  export interface ScreenshotOptions extends TimeoutOptions {
    path?: string
    type?: 'png' | 'jpeg'
    quality?: number
    omitBackground?: boolean
    animations?: 'disabled' | 'allow'
    caret?: 'hide' | 'initial'
    scale?: 'css' | 'device'
    mask?: Locator[]
    maskColor?: string
    style?: string
  }
  export interface PageScreenshotOptions extends ScreenshotOptions { fullPage?: boolean; clip?: Rect }
  export interface NavigationOptions extends TimeoutOptions { waitUntil?: WaitUntil }
  export interface GotoOptions extends NavigationOptions { referer?: string }
  export interface WaitForSelectorOptions extends TimeoutOptions {
    state?: 'attached' | 'detached' | 'visible' | 'hidden'
    strict?: boolean
  }

  /** Locator / getBy* / frameLocator, shared by Page, Frame, FrameLocator and Locator. */
  export interface LocatorRoot {
    locator(selectorOrLocator: string | Locator, options?: LocatorOptions): Locator
    getByText(text: string | RegExp, options?: GetByTextOptions): Locator
    getByRole(role: AriaRole, options?: GetByRoleOptions): Locator
    getByLabel(text: string | RegExp, options?: GetByTextOptions): Locator
    getByPlaceholder(text: string | RegExp, options?: GetByTextOptions): Locator
    getByAltText(text: string | RegExp, options?: GetByTextOptions): Locator
    getByTitle(text: string | RegExp, options?: GetByTextOptions): Locator
    getByTestId(testId: string | RegExp): Locator
    frameLocator(selector: string): FrameLocator
  }

  export interface Locator extends LocatorRoot {
    filter(options?: FilterOptions): Locator
    nth(index: number): Locator
    first(): Locator
    last(): Locator
    and(locator: Locator): Locator
    or(locator: Locator): Locator
    contentFrame(): FrameLocator
    page(): Page
    /** Playwright's description of the locator, e.g. getByTestId('count'). */
    toString(): string

    count(): Promise<number>
    all(): Promise<Locator[]>
    click(options?: ClickOptions): Promise<void>
    dblclick(options?: Omit<ClickOptions, 'clickCount'>): Promise<void>
    tap(options?: Omit<HoverOptions, 'noWaitAfter'>): Promise<void>
    fill(value: string, options?: ActionOptions): Promise<void>
    clear(options?: ActionOptions): Promise<void>
    press(key: string, options?: TypeOptions): Promise<void>
    /** @deprecated Use pressSequentially or fill. */
    type(text: string, options?: TypeOptions): Promise<void>
    pressSequentially(text: string, options?: TypeOptions): Promise<void>
    check(options?: CheckOptions): Promise<void>
    uncheck(options?: CheckOptions): Promise<void>
    setChecked(checked: boolean, options?: CheckOptions): Promise<void>
    selectOption(values: SelectOption | SelectOption[] | null, options?: ActionOptions): Promise<string[]>
    hover(options?: HoverOptions): Promise<void>
    focus(options?: TimeoutOptions): Promise<void>
    blur(options?: TimeoutOptions): Promise<void>
    setInputFiles(files: string | string[] | FilePayload | FilePayload[], options?: ActionOptions): Promise<void>
    dispatchEvent(type: string, eventInit?: object, options?: TimeoutOptions): Promise<void>
    dragTo(target: Locator, options?: CheckOptions & { sourcePosition?: Position; targetPosition?: Position }): Promise<void>
    scrollIntoViewIfNeeded(options?: TimeoutOptions): Promise<void>
    selectText(options?: { force?: boolean; timeout?: number }): Promise<void>
    highlight(): Promise<void>
    textContent(options?: TimeoutOptions): Promise<string | null>
    innerText(options?: TimeoutOptions): Promise<string>
    innerHTML(options?: TimeoutOptions): Promise<string>
    inputValue(options?: TimeoutOptions): Promise<string>
    getAttribute(name: string, options?: TimeoutOptions): Promise<string | null>
    isVisible(): Promise<boolean>
    isHidden(): Promise<boolean>
    isEnabled(options?: TimeoutOptions): Promise<boolean>
    isDisabled(options?: TimeoutOptions): Promise<boolean>
    isChecked(options?: TimeoutOptions): Promise<boolean>
    isEditable(options?: TimeoutOptions): Promise<boolean>
    allTextContents(): Promise<string[]>
    allInnerTexts(): Promise<string[]>
    waitFor(options?: { state?: 'attached' | 'detached' | 'visible' | 'hidden'; timeout?: number }): Promise<void>
    evaluate<R, Arg = unknown>(pageFunction: PageFunctionOn<Element, Arg, R>, arg?: Arg, options?: TimeoutOptions): Promise<R>
    evaluateAll<R, Arg = unknown>(pageFunction: PageFunctionOn<Element[], Arg, R>, arg?: Arg): Promise<R>
    screenshot(options?: ScreenshotOptions): Promise<Bytes>
    boundingBox(options?: TimeoutOptions): Promise<Rect | null>
    elementHandle(options?: TimeoutOptions): Promise<ElementHandle | null>
    elementHandles(): Promise<ElementHandle[]>
    ariaSnapshot(options?: TimeoutOptions): Promise<string>
  }

  export interface FrameLocator extends LocatorRoot {
    first(): FrameLocator
    last(): FrameLocator
    nth(index: number): FrameLocator
    owner(): Locator
  }

  /** What Page and Frame share (a Page acts on its main frame). */
  export interface FrameMethods extends LocatorRoot {
    url(): string
    goto(url: string, options?: GotoOptions): Promise<Response | null>
    title(): Promise<string>
    content(): Promise<string>
    setContent(html: string, options?: NavigationOptions): Promise<void>
    evaluate<R, Arg = unknown>(pageFunction: PageFunction<Arg, R>, arg?: Arg): Promise<R>
    evaluateHandle<R, Arg = unknown>(pageFunction: PageFunction<Arg, R>, arg?: Arg): Promise<JSHandle<R>>
    $eval<R, Arg = unknown>(selector: string, pageFunction: PageFunctionOn<Element, Arg, R>, arg?: Arg): Promise<R>
    $$eval<R, Arg = unknown>(selector: string, pageFunction: PageFunctionOn<Element[], Arg, R>, arg?: Arg): Promise<R>
    $(selector: string): Promise<ElementHandle | null>
    $$(selector: string): Promise<ElementHandle[]>
    waitForSelector(selector: string, options?: WaitForSelectorOptions): Promise<ElementHandle | null>
    /** Resolves when the function returns a truthy value (an element counts as true). */
    waitForFunction<R, Arg = unknown>(pageFunction: PageFunction<Arg, R>, arg?: Arg, options?: TimeoutOptions & { polling?: number | 'raf' }): Promise<JSHandle<R>>
    waitForLoadState(state?: LoadState, options?: TimeoutOptions): Promise<void>
    waitForURL(url: URLMatch, options?: NavigationOptions): Promise<void>
    waitForTimeout(timeout: number): Promise<void>

    click(selector: string, options?: ClickOptions & { strict?: boolean }): Promise<void>
    dblclick(selector: string, options?: ClickOptions & { strict?: boolean }): Promise<void>
    tap(selector: string, options?: HoverOptions & { strict?: boolean }): Promise<void>
    fill(selector: string, value: string, options?: ActionOptions & { strict?: boolean }): Promise<void>
    type(selector: string, text: string, options?: TypeOptions & { strict?: boolean }): Promise<void>
    press(selector: string, key: string, options?: TypeOptions & { strict?: boolean }): Promise<void>
    check(selector: string, options?: CheckOptions & { strict?: boolean }): Promise<void>
    uncheck(selector: string, options?: CheckOptions & { strict?: boolean }): Promise<void>
    setChecked(selector: string, checked: boolean, options?: CheckOptions & { strict?: boolean }): Promise<void>
    hover(selector: string, options?: HoverOptions & { strict?: boolean }): Promise<void>
    focus(selector: string, options?: TimeoutOptions & { strict?: boolean }): Promise<void>
    selectOption(selector: string, values: SelectOption | SelectOption[] | null, options?: ActionOptions & { strict?: boolean }): Promise<string[]>
    setInputFiles(selector: string, files: string | string[] | FilePayload | FilePayload[], options?: ActionOptions & { strict?: boolean }): Promise<void>
    dispatchEvent(selector: string, type: string, eventInit?: object, options?: TimeoutOptions & { strict?: boolean }): Promise<void>
    dragAndDrop(source: string, target: string, options?: CheckOptions & { strict?: boolean; sourcePosition?: Position; targetPosition?: Position }): Promise<void>
    textContent(selector: string, options?: TimeoutOptions & { strict?: boolean }): Promise<string | null>
    innerText(selector: string, options?: TimeoutOptions & { strict?: boolean }): Promise<string>
    innerHTML(selector: string, options?: TimeoutOptions & { strict?: boolean }): Promise<string>
    inputValue(selector: string, options?: TimeoutOptions & { strict?: boolean }): Promise<string>
    getAttribute(selector: string, name: string, options?: TimeoutOptions & { strict?: boolean }): Promise<string | null>
    isVisible(selector: string, options?: { strict?: boolean }): Promise<boolean>
    isHidden(selector: string, options?: { strict?: boolean }): Promise<boolean>
    isEnabled(selector: string, options?: TimeoutOptions & { strict?: boolean }): Promise<boolean>
    isDisabled(selector: string, options?: TimeoutOptions & { strict?: boolean }): Promise<boolean>
    isChecked(selector: string, options?: TimeoutOptions & { strict?: boolean }): Promise<boolean>
    isEditable(selector: string, options?: TimeoutOptions & { strict?: boolean }): Promise<boolean>
  }

  export interface Frame extends FrameMethods {
    name(): string
    page(): Page
    parentFrame(): Frame | null
    childFrames(): Frame[]
    isDetached(): boolean
  }

  export interface PageEvents {
    close: Page
    console: ConsoleMessage
    crash: Page
    dialog: Dialog
    domcontentloaded: Page
    download: Download
    frameattached: Frame
    framedetached: Frame
    framenavigated: Frame
    load: Page
    pageerror: Error
    popup: Page
    request: Request
    requestfailed: Request
    requestfinished: Request
    response: Response
  }

  export interface Page extends FrameMethods {
    readonly keyboard: Keyboard
    readonly mouse: Mouse
    readonly touchscreen: Touchscreen
    /** API requests sharing this page's cookies. */
    readonly request: APIRequestContext
    context(): BrowserContext
    mainFrame(): Frame
    frames(): Frame[]
    frame(nameOrOptions: string | { name?: string; url?: string }): Frame | null
    isClosed(): boolean
    viewportSize(): ViewportSize | null
    setViewportSize(size: ViewportSize): Promise<void>
    reload(options?: NavigationOptions): Promise<Response | null>
    goBack(options?: NavigationOptions): Promise<Response | null>
    goForward(options?: NavigationOptions): Promise<Response | null>
    screenshot(options?: PageScreenshotOptions): Promise<Bytes>
    close(options?: { runBeforeUnload?: boolean; reason?: string }): Promise<void>
    bringToFront(): Promise<void>
    addInitScript<Arg>(script: ((arg: Arg) => any) | string | { path?: string; content?: string }, arg?: Arg): Promise<void>
    exposeFunction(name: string, callback: (...args: any[]) => any): Promise<void>
    emulateMedia(options?: { colorScheme?: 'light' | 'dark' | 'no-preference' | null; media?: 'screen' | 'print' | null; reducedMotion?: 'reduce' | 'no-preference' | null; forcedColors?: 'active' | 'none' | null }): Promise<void>
    setExtraHTTPHeaders(headers: Record<string, string>): Promise<void>
    setDefaultTimeout(timeout: number): void
    setDefaultNavigationTimeout(timeout: number): void
    opener(): Promise<Page | null>
    waitForRequest(urlOrPredicate: string | RegExp | ((request: Request) => boolean | Promise<boolean>), options?: TimeoutOptions): Promise<Request>
    waitForResponse(urlOrPredicate: string | RegExp | ((response: Response) => boolean | Promise<boolean>), options?: TimeoutOptions): Promise<Response>
    /** @deprecated Use waitForURL. Resolves with null once the main frame navigated and loaded. */
    waitForNavigation(options?: { url?: URLMatch; waitUntil?: WaitUntil; timeout?: number }): Promise<null>
    waitForEvent<K extends keyof PageEvents>(event: K, optionsOrPredicate?: ((value: PageEvents[K]) => boolean | Promise<boolean>) | { predicate?: (value: PageEvents[K]) => boolean | Promise<boolean>; timeout?: number }): Promise<PageEvents[K]>
    on<K extends keyof PageEvents>(event: K, listener: (value: PageEvents[K]) => any): this
    once<K extends keyof PageEvents>(event: K, listener: (value: PageEvents[K]) => any): this
    addListener<K extends keyof PageEvents>(event: K, listener: (value: PageEvents[K]) => any): this
    off<K extends keyof PageEvents>(event: K, listener: (value: PageEvents[K]) => any): this
    removeListener<K extends keyof PageEvents>(event: K, listener: (value: PageEvents[K]) => any): this
    removeAllListeners(event?: keyof PageEvents): Promise<void>
    route(url: URLMatch, handler: (route: Route, request: Request) => any, options?: { times?: number }): Promise<void>
    unroute(url: URLMatch, handler?: (route: Route, request: Request) => any): Promise<void>
    unrouteAll(options?: { behavior?: 'wait' | 'ignoreErrors' | 'default' }): Promise<void>
    /** ferridriver has no inspector: resolves at once. */
    pause(): Promise<void>
    /** The page's video when its context records (recordVideo), else null. */
    video(): Video | null
  }

  export interface BrowserContextEvents {
    close: BrowserContext
    console: ConsoleMessage
    dialog: Dialog
    page: Page
    request: Request
    requestfailed: Request
    requestfinished: Request
    response: Response
  }

  export interface Cookie {
    name: string
    value: string
    domain: string
    path: string
    expires: number
    httpOnly: boolean
    secure: boolean
    sameSite: 'Strict' | 'Lax' | 'None'
  }
  export interface StorageState {
    cookies: Cookie[]
    origins: Array<{ origin: string; localStorage: Array<{ name: string; value: string }> }>
  }

  export interface BrowserContext {
    readonly request: APIRequestContext
    readonly tracing: Tracing
    newPage(): Promise<Page>
    pages(): Page[]
    browser(): Browser | null
    close(options?: { reason?: string }): Promise<void>
    cookies(urls?: string | string[]): Promise<Cookie[]>
    addCookies(cookies: Array<Partial<Cookie> & { name: string; value: string; url?: string }>): Promise<void>
    clearCookies(options?: { name?: string; domain?: string; path?: string }): Promise<void>
    storageState(options?: { path?: string }): Promise<StorageState>
    addInitScript<Arg>(script: ((arg: Arg) => any) | string | { path?: string; content?: string }, arg?: Arg): Promise<void>
    exposeFunction(name: string, callback: (...args: any[]) => any): Promise<void>
    grantPermissions(permissions: string[], options?: { origin?: string }): Promise<void>
    clearPermissions(): Promise<void>
    setGeolocation(geolocation: { latitude: number; longitude: number; accuracy?: number } | null): Promise<void>
    setOffline(offline: boolean): Promise<void>
    setExtraHTTPHeaders(headers: Record<string, string>): Promise<void>
    setDefaultTimeout(timeout: number): void
    setDefaultNavigationTimeout(timeout: number): void
    waitForEvent<K extends keyof BrowserContextEvents>(event: K, optionsOrPredicate?: ((value: BrowserContextEvents[K]) => boolean | Promise<boolean>) | { predicate?: (value: BrowserContextEvents[K]) => boolean | Promise<boolean>; timeout?: number }): Promise<BrowserContextEvents[K]>
    on<K extends keyof BrowserContextEvents>(event: K, listener: (value: BrowserContextEvents[K]) => any): this
    once<K extends keyof BrowserContextEvents>(event: K, listener: (value: BrowserContextEvents[K]) => any): this
    off<K extends keyof BrowserContextEvents>(event: K, listener: (value: BrowserContextEvents[K]) => any): this
    removeAllListeners(event?: keyof BrowserContextEvents): Promise<void>
    route(url: URLMatch, handler: (route: Route, request: Request) => any, options?: { times?: number }): Promise<void>
    unroute(url: URLMatch, handler?: (route: Route, request: Request) => any): Promise<void>
    unrouteAll(options?: { behavior?: 'wait' | 'ignoreErrors' | 'default' }): Promise<void>
  }

  /** A page's video (a context created with recordVideo). */
  export interface Video {
    /** The file the video is recorded to (complete once the page is closed). */
    path(): Promise<string>
    /** Waits for the page to close, then copies the video to path. */
    saveAs(path: string): Promise<void>
    /** Waits for the page to close, then deletes the video. */
    delete(): Promise<void>
  }

  export interface Tracing {
    start(options?: { name?: string; title?: string; screenshots?: boolean; snapshots?: boolean; sources?: boolean }): Promise<void>
    stop(options?: { path?: string }): Promise<void>
  }

  export interface BrowserContextOptions {
    acceptDownloads?: boolean
    baseURL?: string
    bypassCSP?: boolean
    colorScheme?: 'light' | 'dark' | 'no-preference'
    deviceScaleFactor?: number
    extraHTTPHeaders?: Record<string, string>
    geolocation?: { latitude: number; longitude: number; accuracy?: number }
    hasTouch?: boolean
    httpCredentials?: { username: string; password: string; origin?: string }
    ignoreHTTPSErrors?: boolean
    isMobile?: boolean
    javaScriptEnabled?: boolean
    locale?: string
    offline?: boolean
    permissions?: string[]
    reducedMotion?: 'reduce' | 'no-preference'
    storageState?: string | StorageState
    strictSelectors?: boolean
    timezoneId?: string
    userAgent?: string
    viewport?: ViewportSize | null
    screen?: ViewportSize
    /** Records a video of each page into dir (needs ffmpeg: `ferridriver install`). */
    recordVideo?: { dir: string; size?: ViewportSize }
  }

  /** One of Playwright's device descriptors (devices['iPhone 13']). */
  export interface DeviceDescriptor {
    userAgent: string
    viewport: ViewportSize
    screen?: ViewportSize
    deviceScaleFactor: number
    isMobile: boolean
    hasTouch: boolean
    defaultBrowserType: 'chromium' | 'firefox' | 'webkit'
  }

  /**
   * The browser ferridriver manages, shared by the workers. newContext and
   * newPage start from the [browser] configuration; close() closes the
   * contexts made through this object, never the shared process.
   */
  export interface Browser {
    newContext(options?: BrowserContextOptions): Promise<BrowserContext>
    newPage(options?: BrowserContextOptions): Promise<Page>
    contexts(): BrowserContext[]
    close(): Promise<void>
    isConnected(): boolean
    version(): string
    browserType(): BrowserType
  }

  export interface BrowserType {
    name(): string
    executablePath(): string
    /** Returns ferridriver's browser ([browser] configures it; launch options are ignored). */
    launch(options?: object): Promise<Browser>
  }

  export interface Keyboard {
    down(key: string): Promise<void>
    up(key: string): Promise<void>
    press(key: string, options?: { delay?: number }): Promise<void>
    type(text: string, options?: { delay?: number }): Promise<void>
    insertText(text: string): Promise<void>
  }
  export interface Mouse {
    click(x: number, y: number, options?: { button?: MouseButton; clickCount?: number; delay?: number }): Promise<void>
    dblclick(x: number, y: number, options?: { button?: MouseButton; delay?: number }): Promise<void>
    move(x: number, y: number, options?: { steps?: number }): Promise<void>
    down(options?: { button?: MouseButton; clickCount?: number }): Promise<void>
    up(options?: { button?: MouseButton; clickCount?: number }): Promise<void>
    wheel(deltaX: number, deltaY: number): Promise<void>
  }
  export interface Touchscreen {
    tap(x: number, y: number): Promise<void>
  }

  export interface Request {
    url(): string
    method(): string
    resourceType(): string
    isNavigationRequest(): boolean
    headers(): Record<string, string>
    allHeaders(): Promise<Record<string, string>>
    headerValue(name: string): Promise<string | null>
    postData(): string | null
    postDataBuffer(): Bytes | null
    postDataJSON(): any
    frame(): Frame
    redirectedFrom(): Request | null
    redirectedTo(): Request | null
    failure(): { errorText: string } | null
    response(): Promise<Response | null>
    timing(): ResourceTiming
  }

  /** Request timing in milliseconds relative to startTime; -1 where not available. */
  export interface ResourceTiming {
    startTime: number
    domainLookupStart: number
    domainLookupEnd: number
    connectStart: number
    secureConnectionStart: number
    connectEnd: number
    requestStart: number
    responseStart: number
    responseEnd: number
  }

  export interface Response {
    url(): string
    status(): number
    statusText(): string
    ok(): boolean
    headers(): Record<string, string>
    allHeaders(): Promise<Record<string, string>>
    headerValue(name: string): Promise<string | null>
    text(): Promise<string>
    body(): Promise<Bytes>
    json(): Promise<any>
    finished(): Promise<null>
    request(): Request
    frame(): Frame
    fromServiceWorker(): boolean
  }

  export interface Route {
    request(): Request
    fulfill(options?: { status?: number; headers?: Record<string, string>; contentType?: string; body?: string | Uint8Array; json?: any; path?: string; response?: APIResponse }): Promise<void>
    continue(options?: { url?: string; method?: string; headers?: Record<string, string>; postData?: string | Uint8Array | object }): Promise<void>
    fallback(options?: { url?: string; method?: string; headers?: Record<string, string>; postData?: string | Uint8Array | object }): Promise<void>
    abort(errorCode?: string): Promise<void>
    fetch(options?: { url?: string; method?: string; headers?: Record<string, string>; postData?: string | Uint8Array | object; maxRedirects?: number; timeout?: number }): Promise<APIResponse>
  }

  export interface Dialog {
    accept(promptText?: string): Promise<void>
    dismiss(): Promise<void>
    message(): string
    type(): 'alert' | 'beforeunload' | 'confirm' | 'prompt'
    defaultValue(): string
    page(): Page | null
  }

  export interface Download {
    url(): string
    suggestedFilename(): string
    page(): Page
    path(): Promise<string>
    saveAs(path: string): Promise<void>
    failure(): Promise<string | null>
    cancel(): Promise<void>
    delete(): Promise<void>
  }

  export interface ConsoleMessage {
    type(): string
    text(): string
    args(): JSHandle[]
    location(): { url: string; lineNumber: number; columnNumber: number }
    page(): Page | null
  }

  export interface JSHandle<T = any> {
    jsonValue(): Promise<T>
    evaluate<R, Arg = unknown>(pageFunction: PageFunctionOn<T, Arg, R>, arg?: Arg): Promise<R>
    getProperty(name: string): Promise<JSHandle>
    asElement(): ElementHandle | null
    dispose(): Promise<void>
  }

  export interface ElementHandle<T = Node> extends JSHandle<T> {
    textContent(): Promise<string | null>
    innerText(): Promise<string>
    innerHTML(): Promise<string>
    inputValue(): Promise<string>
    getAttribute(name: string): Promise<string | null>
    isVisible(): Promise<boolean>
    isHidden(): Promise<boolean>
    isEnabled(): Promise<boolean>
    isDisabled(): Promise<boolean>
    isChecked(): Promise<boolean>
    isEditable(): Promise<boolean>
    click(options?: ClickOptions): Promise<void>
    dblclick(options?: ClickOptions): Promise<void>
    fill(value: string, options?: ActionOptions): Promise<void>
    type(text: string, options?: { delay?: number }): Promise<void>
    press(key: string, options?: { delay?: number }): Promise<void>
    check(options?: { force?: boolean }): Promise<void>
    uncheck(options?: { force?: boolean }): Promise<void>
    hover(options?: { force?: boolean }): Promise<void>
    focus(): Promise<void>
    scrollIntoViewIfNeeded(): Promise<void>
    setInputFiles(files: string | string[] | FilePayload | FilePayload[]): Promise<void>
    selectOption(values: SelectOption | SelectOption[] | null): Promise<string[]>
    boundingBox(): Promise<Rect | null>
    screenshot(options?: ScreenshotOptions): Promise<Bytes>
    contentFrame(): Promise<Frame | null>
    $(selector: string): Promise<ElementHandle | null>
    $$(selector: string): Promise<ElementHandle[]>
  }

  export interface FetchOptions extends TimeoutOptions {
    data?: string | Uint8Array | object
    form?: Record<string, string | number | boolean>
    multipart?: Record<string, string | number | boolean | FilePayload>
    headers?: Record<string, string>
    params?: Record<string, string | number | boolean>
    method?: string
    failOnStatusCode?: boolean
    ignoreHTTPSErrors?: boolean
    maxRedirects?: number
    maxRetries?: number
  }

  /** HTTP requests; relative URLs resolve against baseURL. */
  export interface APIRequestContext {
    fetch(urlOrRequest: string | Request, options?: FetchOptions): Promise<APIResponse>
    get(url: string, options?: FetchOptions): Promise<APIResponse>
    post(url: string, options?: FetchOptions): Promise<APIResponse>
    put(url: string, options?: FetchOptions): Promise<APIResponse>
    patch(url: string, options?: FetchOptions): Promise<APIResponse>
    delete(url: string, options?: FetchOptions): Promise<APIResponse>
    head(url: string, options?: FetchOptions): Promise<APIResponse>
    dispose(): Promise<void>
    storageState(options?: { path?: string }): Promise<StorageState>
  }

  export interface APIResponse {
    url(): string
    status(): number
    statusText(): string
    ok(): boolean
    headers(): Record<string, string>
    headersArray(): Array<{ name: string; value: string }>
    text(): Promise<string>
    body(): Promise<Bytes>
    json(): Promise<any>
    dispose(): Promise<void>
  }

  export const request: {
    newContext(options?: {
      baseURL?: string
      extraHTTPHeaders?: Record<string, string>
      httpCredentials?: { username: string; password: string; origin?: string }
      ignoreHTTPSErrors?: boolean
      storageState?: string
      timeout?: number
      userAgent?: string
      failOnStatusCode?: boolean
      maxRedirects?: number
    }): Promise<APIRequestContext>
  }

  export const chromium: BrowserType
  export const firefox: BrowserType
  export const webkit: BrowserType
  /** Device descriptors are not bundled: empty. */
  export const devices: Record<string, DeviceDescriptor>
  export const errors: { TimeoutError: typeof TimeoutError }
  export class TimeoutError extends Error {}
  export const selectors: { setTestIdAttribute(attributeName: string): void }

  // ---- expect ----

  export interface ExpectOptions { timeout?: number }

  /** The matchers of expect(value): generic ones for any value. */
  export interface GenericMatchers<R> {
    toBe(expected: unknown): R
    toEqual(expected: unknown): R
    toStrictEqual(expected: unknown): R
    toBeTruthy(): R
    toBeFalsy(): R
    toBeNull(): R
    toBeUndefined(): R
    toBeDefined(): R
    toBeNaN(): R
    toBeInstanceOf(expected: Function): R
    toContain(expected: unknown): R
    toContainEqual(expected: unknown): R
    toMatch(expected: RegExp | string): R
    toMatchObject(expected: object | object[]): R
    toHaveLength(expected: number): R
    toHaveProperty(keyPath: string | Array<string | number>, value?: unknown): R
    toBeGreaterThan(expected: number | bigint): R
    toBeGreaterThanOrEqual(expected: number | bigint): R
    toBeLessThan(expected: number | bigint): R
    toBeLessThanOrEqual(expected: number | bigint): R
    toBeCloseTo(expected: number, numDigits?: number): R
    toThrow(expected?: string | RegExp | Error | Function): R
    toThrowError(expected?: string | RegExp | Error | Function): R
  }

  /** Auto-retrying assertions on a Locator: they wait until the condition holds. */
  export interface LocatorAssertions {
    toBeVisible(options?: ExpectOptions & { visible?: boolean }): Promise<void>
    toBeHidden(options?: ExpectOptions): Promise<void>
    toBeEnabled(options?: ExpectOptions & { enabled?: boolean }): Promise<void>
    toBeDisabled(options?: ExpectOptions): Promise<void>
    toBeChecked(options?: ExpectOptions & { checked?: boolean; indeterminate?: boolean }): Promise<void>
    toBeEditable(options?: ExpectOptions & { editable?: boolean }): Promise<void>
    toBeFocused(options?: ExpectOptions): Promise<void>
    toBeAttached(options?: ExpectOptions & { attached?: boolean }): Promise<void>
    toBeEmpty(options?: ExpectOptions): Promise<void>
    toBeInViewport(options?: ExpectOptions & { ratio?: number }): Promise<void>
    toHaveText(expected: string | RegExp | Array<string | RegExp>, options?: ExpectOptions & { ignoreCase?: boolean; useInnerText?: boolean }): Promise<void>
    toContainText(expected: string | RegExp | Array<string | RegExp>, options?: ExpectOptions & { ignoreCase?: boolean; useInnerText?: boolean }): Promise<void>
    toHaveValue(value: string | RegExp, options?: ExpectOptions): Promise<void>
    toHaveValues(values: Array<string | RegExp>, options?: ExpectOptions): Promise<void>
    toHaveCount(count: number, options?: ExpectOptions): Promise<void>
    toHaveAttribute(name: string, value: string | RegExp, options?: ExpectOptions & { ignoreCase?: boolean }): Promise<void>
    toHaveAttribute(name: string, options?: ExpectOptions): Promise<void>
    toHaveClass(expected: string | RegExp | Array<string | RegExp>, options?: ExpectOptions): Promise<void>
    toContainClass(expected: string | string[], options?: ExpectOptions): Promise<void>
    toHaveCSS(name: string, value: string | RegExp, options?: ExpectOptions): Promise<void>
    toHaveId(id: string | RegExp, options?: ExpectOptions): Promise<void>
    toHaveRole(role: AriaRole, options?: ExpectOptions): Promise<void>
    toHaveAccessibleName(name: string | RegExp, options?: ExpectOptions & { ignoreCase?: boolean }): Promise<void>
    toHaveAccessibleDescription(description: string | RegExp, options?: ExpectOptions & { ignoreCase?: boolean }): Promise<void>
    toHaveJSProperty(name: string, value: any, options?: ExpectOptions): Promise<void>
  }
  /** Options of toHaveScreenshot (Playwright's). */
  export interface ScreenshotAssertionOptions extends ExpectOptions {
    animations?: 'disabled' | 'allow'
    caret?: 'hide' | 'initial'
    scale?: 'css' | 'device'
    mask?: Locator[]
    maskColor?: string
    omitBackground?: boolean
    stylePath?: string | string[]
    maxDiffPixels?: number
    maxDiffPixelRatio?: number
    threshold?: number
  }
  export interface PageScreenshotAssertionOptions extends ScreenshotAssertionOptions { fullPage?: boolean; clip?: Rect }
  /** Compares with a baseline file: {feature file}-snapshots/{name}-{platform}.png by default. */
  export interface ScreenshotAssertions<O> {
    toHaveScreenshot(name?: string | string[], options?: O): Promise<void>
    toHaveScreenshot(options?: O & { name?: string | string[] }): Promise<void>
  }
  export interface SnapshotOptions { maxDiffPixels?: number; maxDiffPixelRatio?: number; threshold?: number }
  export interface PageAssertions {
    toHaveTitle(title: string | RegExp, options?: ExpectOptions): Promise<void>
    toHaveURL(url: string | RegExp, options?: ExpectOptions & { ignoreCase?: boolean }): Promise<void>
  }
  export interface APIResponseAssertions {
    toBeOK(): Promise<void>
  }

  export type MakeMatchers<T> = GenericMatchers<void> &
    (T extends Locator ? LocatorAssertions & ScreenshotAssertions<ScreenshotAssertionOptions> : {}) &
    (T extends Page ? PageAssertions & ScreenshotAssertions<PageScreenshotAssertionOptions> : {}) &
    (T extends string | Uint8Array ? {
      /** Compares with a baseline file ({feature file}-snapshots/{name}-{platform}{ext}). */
      toMatchSnapshot(name?: string | string[], options?: SnapshotOptions): void
      toMatchSnapshot(options?: SnapshotOptions & { name?: string | string[] }): void
    } : {}) &
    (T extends APIResponse | Response ? APIResponseAssertions : {}) &
    (T extends (...args: any[]) => any ? { toPass(options?: { timeout?: number; intervals?: number[] }): Promise<void> } : {}) & {
      /** Negates the matcher that follows. */
      not: MakeMatchers<T>
      /** Awaits the promise, then matches its value. */
      resolves: GenericMatchers<Promise<void>>
      /** Awaits the promise's rejection, then matches its reason. */
      rejects: GenericMatchers<Promise<void>>
    }

  export interface AsymmetricMatcher { asymmetricMatch(other: unknown): boolean }
  export interface AsymmetricMatchers {
    any(constructor: Function): any
    anything(): any
    arrayContaining(sample: unknown[]): any
    objectContaining(sample: Record<string, unknown>): any
    stringContaining(sample: string): any
    stringMatching(sample: string | RegExp): any
    closeTo(value: number, numDigits?: number): any
  }

  export interface CustomMatcherResult { pass: boolean; message: () => string }

  export interface Expect extends AsymmetricMatchers {
    <T = unknown>(actual: T, messageOrOptions?: string | { message?: string }): MakeMatchers<T>
    /** Like expect, but a failure does not stop the step: the step fails when it ends, with all of them. */
    soft<T = unknown>(actual: T, messageOrOptions?: string | { message?: string }): MakeMatchers<T>
    /** Retries fn until the generic matcher passes (default timeout 5000 ms). */
    poll<T>(fn: () => T | Promise<T>, options?: { timeout?: number; intervals?: number[]; message?: string }): GenericMatchers<Promise<void>> & { not: GenericMatchers<Promise<void>> }
    /** A copy of expect with other defaults (timeout of web-first matchers, soft). */
    configure(options: { timeout?: number; soft?: boolean }): Expect
    extend(matchers: Record<string, (this: { isNot: boolean; promise: string; equals(a: unknown, b: unknown): boolean }, received: any, ...args: any[]) => CustomMatcherResult | Promise<CustomMatcherResult>>): void
    not: Omit<AsymmetricMatchers, 'any' | 'anything' | 'closeTo'>
  }

  export const expect: Expect
}

declare module 'playwright/test' {
  export * from '@playwright/test'
}

declare module 'playwright' {
  export { chromium, firefox, webkit, request, devices, errors, selectors } from '@playwright/test'
  export type * from '@playwright/test'
}

declare module 'playwright-core' {
  export { chromium, firefox, webkit, request, devices, errors, selectors } from '@playwright/test'
  export type * from '@playwright/test'
}

/** Playwright's expect, also importable from '@playwright/test' and 'ferridriver'. */
declare const expect: import('@playwright/test').Expect
